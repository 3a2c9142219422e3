import { ApiError, invalidParameter, missingParameter } from '../../errors.js';
import type { WebhooksTable } from '../../store/schema.js';
import type { CoreContext } from '../context.js';
import { storeMessage } from '../commands/internal/messageSending.js';
import { runChange } from '../effects/effects.js';
import { checkContent } from '../messageContent.js';
import { senderInStanding } from '../policies/senderStanding.js';
import { convertSlackPayload, type ConvertedMessage } from './slack.js';

/**
 * A POST to a webhook's URL, read in one of two dialects (docs/reference/webhooks.md): Aviary's own
 * (`text`, `serviceml`, `attachments`: chat.sendMessage's shapes) or Slack's (`blocks`, mrkdwn, Slack
 * attachments…), then posted to the webhook's channel as its maker, named as the integration.
 */
export type WebhookDialect = 'aviary' | 'slack';

/** Keys only a Slack payload has. */
const SLACK_KEYS = new Set(['blocks', 'mrkdwn', 'username', 'icon_url', 'icon_emoji', 'channel', 'unfurl_links', 'unfurl_media', 'parse', 'link_names', 'thread_ts', 'reply_broadcast', 'response_type', 'as_user', 'metadata', 'replace_original', 'delete_original']);
const AVIARY_KEYS = new Set(['text', 'serviceml', 'attachments']);
/** An Aviary attachment's fields (docs/reference/attachments.md); an attachment with any other is Slack's. */
const AVIARY_ATTACHMENT_KEYS = new Set(['id', 'appId', 'title', 'description', 'color', 'url', 'forward', 'views', 'downloads', 'buttons']);

type Json = Record<string, unknown>;

/**
 * Which dialect a JSON payload speaks: Slack's when it has a key only Slack's has, or an attachment with a
 * field Aviary's have not; else Aviary's. `textOnly`: it is `{text}` alone, which both read the same way.
 */
export function dialectOf(payload: Json): { dialect: WebhookDialect; textOnly: boolean } {
  const keys = Object.keys(payload);
  const slackAttachment =
    Array.isArray(payload.attachments) &&
    payload.attachments.some((a) => typeof a === 'object' && a !== null && Object.keys(a).some((key) => !AVIARY_ATTACHMENT_KEYS.has(key)));
  const slack = slackAttachment || keys.some((key) => SLACK_KEYS.has(key));
  return { dialect: slack ? 'slack' : 'aviary', textOnly: keys.length === 1 && keys[0] === 'text' };
}

/** An Aviary-dialect payload's message; its content is then checked by chat.sendMessage's own checks. */
export function readAviaryPayload(payload: Json): ConvertedMessage {
  const unknown = Object.keys(payload).find((key) => !AVIARY_KEYS.has(key));
  if (unknown !== undefined) throw invalidParameter(unknown, `${unknown} is not a field of a webhook message; send text, serviceml and attachments.`);
  const { text, serviceml, attachments } = payload;
  if (text === undefined || text === null || text === '') throw missingParameter('text');
  if (typeof text !== 'string') throw invalidParameter('text', 'text must be a string.');
  if (text.length > 40_000) throw invalidParameter('text', 'text may be at most 40000 characters.');
  if (serviceml !== undefined && typeof serviceml !== 'string') throw invalidParameter('serviceml', 'serviceml must be a string (a ServiceML document).');
  if (attachments !== undefined && !Array.isArray(attachments)) throw invalidParameter('attachments', 'attachments must be an array of at most one Attachment.');
  return { text, ...(serviceml !== undefined ? { serviceml } : {}), ...(attachments !== undefined ? { attachments: attachments as Json[] } : {}) };
}

export function readPayload(payload: Json, dialect: WebhookDialect): ConvertedMessage {
  return dialect === 'slack' ? convertSlackPayload(payload) : readAviaryPayload(payload);
}

/**
 * Posts through the webhook with every check of chat.sendMessage, as its maker now: a maker who left
 * the channel, was deactivated or lost the app they made it through makes the webhook refused (403).
 * The maker's standing is read in the message's own transaction, as a scheduled message's is.
 */
export async function postThroughWebhook(ctx: CoreContext, hook: WebhooksTable, message: ConvertedMessage): Promise<string> {
  try {
    const sendAs = { name: hook.name, ...(hook.icon_url !== null ? { profileImage: hook.icon_url } : {}) };
    const input = { to: hook.channel_id, ...message, sendAs, ...(hook.on_behalf_of !== null ? { onBehalfOf: hook.on_behalf_of } : {}) };
    const content = checkContent(input, hook.app_id);
    const { message: sent } = await runChange(ctx, async (tx, effects) => {
      const sender = await senderInStanding(tx, hook.owner_user_id, hook.app_id);
      return storeMessage(ctx, tx, effects, { user: sender, appId: hook.app_id, webhookId: hook.id }, input, content);
    });
    return sent.uid;
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'UnknownRecipient' || error.code === 'AppDisabled' || (error.code === 'InvalidParameter' && error.context.parameter === 'onBehalfOf'))) {
      throw new ApiError('PermissionDenied', `The webhook's maker may no longer post to its channel: ${error.message}`);
    }
    // The poster names no channel: the webhook's own is archived.
    if (error instanceof ApiError && error.code === 'ChannelArchived') throw new ApiError('ChannelArchived', `This webhook's channel is archived: ${error.message}`);
    throw error;
  }
}
