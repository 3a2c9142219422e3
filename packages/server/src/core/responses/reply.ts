import { responseUrlLimits, type ResponseType } from '@aviary/protocol';
import { ApiError, invalidParameter } from '../../errors.js';
import type { ResponseUrlsTable, UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { sendMessageInChange } from '../commands/internal/messageSending.js';
import { updateMessageInChange } from '../commands/internal/messageUpdates.js';
import { runChange, type Effects } from '../effects/effects.js';
import { checkAttachments, checkServiceml } from '../messageContent.js';
import { findUsableApp } from '../interactions/appAccess.js';
import { isDirectChat, takeReply } from './responseUrls.js';

export interface ReplyInput {
  token: string;
  text: string;
  serviceml?: string;
  attachments?: unknown[];
  responseType?: ResponseType;
  replaceOriginal?: boolean;
}

/**
 * A reply through a response URL (docs/reference/events.md, "Replying later: responseUrl"), sent by the
 * app's bot with the rights it has now: the app still exists and is not disabled for the team or by the
 * person, the person is still active, and the bot may post where the reply goes (in a channel, on behalf
 * of the person, who must still be a member and have the app installed, as `onBehalfOf` asks). The
 * content is checked first; then the reply is taken and the message sent (or replaced) in one
 * transaction, so a refusal, or a failure, uses none of the URL's replies.
 */
export async function replyThroughResponseUrl(ctx: CoreContext, input: ReplyInput): Promise<{ uid: string; repliesLeft: number }> {
  checkServiceml(input.serviceml);
  checkAttachments(input.attachments, null);
  return runChange(ctx, async (tx, effects) => {
    const url = await takeReply(tx, input.token, ctx.now());
    const uid = await reply(ctx, tx, effects, url, input);
    return { uid, repliesLeft: responseUrlLimits.uses - url.uses };
  });
}

async function reply(ctx: CoreContext, tx: Tx, effects: Effects, url: ResponseUrlsTable, input: ReplyInput): Promise<string> {
  const person = await tx.selectFrom('users').selectAll().where('id', '=', url.user_id).where('deactivated_at', 'is', null).executeTakeFirst();
  if (!person) throw new ApiError('PermissionDenied', `${url.user_id}, who acted, is no longer an active member of the team; the reply has nobody to go to.`);
  const { app, installed } = await findUsableApp(tx, person, url.app_id, 'token').catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'InvalidParameter') throw new ApiError('UnknownResponseUrl', `The app of this response URL (${url.app_id}) was deleted.`, { parameter: 'token' });
    throw error;
  });
  if (app.bot_user_id === null) throw new ApiError('BotNotEnabled', `Replies through a response URL are sent by the app's bot, and ${app.name} has none; enable it (aviary app bot --enable, or the dashboard).`);
  const bot = await tx.selectFrom('users').selectAll().where('id', '=', app.bot_user_id).executeTakeFirstOrThrow();
  const content = { text: input.text, serviceml: input.serviceml, attachments: input.attachments as Array<Record<string, unknown>> | undefined };
  if (input.replaceOriginal === true) {
    if (url.message_uid === null) {
      throw invalidParameter('replaceOriginal', `A ${url.event_name} event carries no message of the app's to replace: only an attachment button or a ServiceML <action> does. Leave replaceOriginal out to send a new message.`);
    }
    const { message } = await updateMessageInChange(ctx, tx, effects, { user: bot, appId: app.id, kind: 'bot' }, { messageUid: url.message_uid, ...content });
    return message.uid;
  }
  const { message } = await sendMessageInChange(ctx, tx, effects, { user: bot, appId: app.id }, { ...content, ...where(url, { person, bot, installed, appName: app.name }, input.responseType ?? 'ephemeral') });
  return message.uid;
}

interface Parties {
  person: UsersTable;
  bot: UsersTable;
  /** Whether the person installed the app: a bot posts in a channel only on behalf of a member who did. */
  installed: boolean;
  appName: string;
}

/**
 * Where a reply goes. In a channel: there, on behalf of the person (who installed the app), to them alone
 * when ephemeral. In a direct chat with the bot: there. Where the bot may not post (a direct chat between
 * two people; a channel, for a person who pressed a bot's button without installing the app), an
 * ephemeral reply goes to the person's direct chat with the bot, and one to the chat is refused.
 */
function where(url: ResponseUrlsTable, { person, bot, installed, appName }: Parties, responseType: ResponseType): { to: string; onBehalfOf?: string; visibleTo?: string[] } {
  const visibleTo = responseType === 'ephemeral' ? { visibleTo: [person.id] } : {};
  const inChannel = !isDirectChat(url.chat);
  if (inChannel && installed) return { to: url.chat, onBehalfOf: person.id, ...visibleTo };
  if (url.chat === bot.id || responseType === 'ephemeral') return { to: person.id, ...visibleTo };
  throw invalidParameter(
    'responseType',
    inChannel
      ? `${person.id} has not installed ${appName}, and its bot posts in a channel only on behalf of a member who did; reply with responseType "ephemeral", which goes to their direct chat with the bot.`
      : `The person acted in a direct chat with someone else, where an app's bot does not post; reply with responseType "ephemeral", which goes to their direct chat with the bot.`,
  );
}
