import type { ChatGenerateUrlPreviewEvent } from '@aviary/protocol';
import { validateUrlPreviewAnswer, type Attachment } from '@aviary/serviceml';
import type { CoreContext } from '../context.js';
import { deliverSynchronously } from '../../events/delivery/sync.js';
import { attachPreview } from '../../store/rows/messages.js';
import type { MessagesTable } from '../../store/schema.js';
import { runChange } from '../effects/effects.js';
import { messageUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { appsForPreviewDomain } from '../integrations.js';
import { findPreviewUrls } from './findPreviewUrls.js';

/**
 * `chat.generateUrlPreview` (docs/reference/events.md), run after the message was committed and answered:
 * for each of `urls` (from `previewUrlsOf`), each app the sender installed and has enabled whose preview
 * domains match its host is asked in turn (one synchronous attempt, `urlPreviewTimeoutMs`), and the first
 * valid attachment is added.
 */
export async function requestUrlPreviews(ctx: CoreContext, message: MessagesTable, urls: readonly URL[]): Promise<void> {
  for (const url of urls) {
    for (const app of await appsForPreviewDomain(ctx.db, message.from_user_id, url.hostname)) {
      const attachment = await askForPreview(ctx, app.id, message, url.href);
      if (!attachment) continue;
      await addPreview(ctx, message, { ...attachment, appId: app.id });
      return;
    }
  }
}

/**
 * The links of a message that may get a preview: none when it already carries an attachment (a message
 * carries at most one), so most messages start no background work at all.
 */
export function previewUrlsOf(message: MessagesTable): URL[] {
  return message.attachments === null ? findPreviewUrls(message.text) : [];
}

async function askForPreview(ctx: CoreContext, appId: string, message: MessagesTable, url: string): Promise<Attachment | undefined> {
  const event: ChatGenerateUrlPreviewEvent = {
    name: 'chat.generateUrlPreview',
    userId: message.from_user_id,
    url,
    chat: message.to_id,
    to: message.to_id,
    messageUid: message.uid,
  };
  const timeoutMs = ctx.events.settings.urlPreviewTimeoutMs;
  const delivery = await deliverSynchronously(ctx, { appId, userId: message.from_user_id, event, timeoutMs });
  if (!delivery.ok) {
    const why = delivery.reason === 'not_subscribed' ? 'the app did not subscribe to chat.generateUrlPreview' : 'the app did not answer';
    ctx.log.info({ appId, eventId: delivery.eventId, reason: delivery.reason }, `no URL preview: ${why}`);
    return undefined;
  }
  if (declined(delivery.body)) return undefined;
  const answer = validateUrlPreviewAnswer(delivery.body);
  if (!answer.ok) {
    const problem = `the answer is not a valid attachment, so no preview was added: ${answer.description}`;
    ctx.log.warn({ appId, eventId: delivery.eventId, problem }, 'URL preview dropped');
    // The developer reads why in the event's history, beside the answer the attempt recorded.
    await ctx.db.updateTable('events').set({ last_error: problem }).where('id', '=', delivery.eventId).execute();
    return undefined;
  }
  return answer.value;
}

/** An empty answer (`{}`, `{"attachment": null}`, no body) is how an app says it has no preview. */
function declined(body: unknown): boolean {
  if (body === null || body === undefined || body === '') return true;
  if (typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  return keys.length === 0 || (keys.length === 1 && keys[0] === 'attachment' && (body as { attachment: unknown }).attachment === null);
}

/** Everyone who sees the message gets it again, whole, as `message.updated`; never over an attachment it has. */
async function addPreview(ctx: CoreContext, message: MessagesTable, attachment: Attachment): Promise<void> {
  await runChange(ctx, async (tx, effects) => {
    const updated = await attachPreview(tx, message.uid, JSON.stringify([attachment]));
    if (updated) await recordStreamEntries(tx, effects, message.team_id, [messageUpdated(updated)], ctx.now());
  });
}
