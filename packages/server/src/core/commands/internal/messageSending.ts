import { isUserId, type api, type ParamsOf } from '@aviary/protocol';
import { ApiError, invalidParameter } from '../../../errors.js';
import { lockChannelPosting, lockName } from '../../../store/rows/locks.js';
import { insertMessages } from '../../../store/rows/messages.js';
import { newMessageUid } from '../../../store/ids.js';
import type { MessagesTable, UsersTable } from '../../../store/schema.js';
import type { Tx } from '../../../store/store.js';
import type { CoreContext } from '../../context.js';
import type { Effects } from '../../effects/effects.js';
import { filesForMessage, linkMessageFiles } from '../../files/attachFiles.js';
import { senderAsReader } from '../../files/fileAccess.js';
import { checkContent, type CheckedContent } from '../../messageContent.js';
import { checkBroadcast, mentionsWithBroadcast } from '../../policies/broadcastMentions.js';
import { checkOnBehalfOf, idsOutsideTeam, resolveRecipient } from '../../policies/chat.js';
import { findMessageByClientId } from '../../queries/messages.js';
import { resolveThreadRoot } from '../../threads/parent.js';
import { recordReply } from '../../threads/replies.js';
import { recordMessageEffects } from '../../triggers/messageEffects.js';

/** The parameters of chat.sendMessage, already decoded and type-checked; the web client sends the same. */
export type SendMessageInput = ParamsOf<typeof api.chat.sendMessage>;

/**
 * Who sends: a person, or a token's user or bot through the token's app (`appId`, null for none);
 * `webhookId`, the incoming webhook the message came through (messages.webhook_id), if any.
 */
export interface Sender {
  user: UsersTable;
  appId: string | null;
  webhookId?: string;
}

export interface SentMessage {
  message: MessagesTable;
  /** True when `id` repeated a client id of the last 24 h: `message` is the earlier one, nothing was stored. */
  repeated: boolean;
}

/** How long a client id keeps answering with the message it first made. */
export const CLIENT_ID_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * sendMessage inside a change the caller runs, content checks included: for a writer whose own rows
 * must commit or roll back with the message (a scheduled message marked sent in the same transaction).
 */
export async function sendMessageInChange(ctx: CoreContext, tx: Tx, effects: Effects, sender: Sender, input: SendMessageInput): Promise<SentMessage> {
  return storeMessage(ctx, tx, effects, sender, input, checkContent(input, sender.appId));
}

/**
 * The message stored with what it sets off, its content already checked (checkContent): who may be
 * named, where the sender may post, the client-id repeat check, the insert and recordMessageEffects,
 * all in the caller's transaction, so that no rule can change between check and write.
 */
export async function storeMessage(ctx: CoreContext, tx: Tx, effects: Effects, { user: sender, appId, webhookId }: Sender, input: SendMessageInput, content: CheckedContent): Promise<SentMessage> {
  const { recipient, root, files, broadcast } = await checkSendable(tx, { user: sender, appId, ...(webhookId !== undefined ? { webhookId } : {}) }, input, content);
  const now = ctx.now();
  if (input.id !== undefined) {
    // Concurrent sends with one client id (a client retrying before the first answer came back) take
    // turns, so the second finds the first's message instead of adding its own.
    await lockName(tx, `${sender.id}|${appId ?? ''}|${input.id}`);
    const earlier = await findMessageByClientId(tx, { senderId: sender.id, appId, clientId: input.id, sentAfter: now - CLIENT_ID_WINDOW_MS });
    if (earlier) return { message: earlier, repeated: true };
  }
  const message: MessagesTable = {
    uid: newMessageUid(now),
    chat_key: recipient.chatKey,
    team_id: sender.team_id,
    from_user_id: sender.id,
    to_id: recipient.toId,
    client_id: input.id ?? null,
    timestamp: now,
    text: input.text,
    serviceml: input.serviceml ?? null,
    notification: input.notification ?? null,
    mentions: jsonOrNull(mentionsWithBroadcast(content.mentions, broadcast)),
    send_as: jsonOrNull(input.sendAs),
    app_id: appId,
    attachments: jsonOrNull(content.attachments),
    visible_to: jsonOrNull(content.visibleTo),
    edited_at: null,
    webhook_id: webhookId ?? null,
    thread_parent: root?.uid ?? null,
    also_in_channel: root && input.alsoInChannel ? 1 : 0,
    deleted_at: null,
    ...(files ? { files: JSON.stringify(files) } : {}),
  };
  await insertMessages(tx, [message]);
  // The webhook's last use is its message's: recorded with it, in its transaction. Revoked since it was
  // looked up (its revocation answered, so no message may come through it after): refused, nothing kept.
  if (webhookId !== undefined) {
    const used = await tx.updateTable('webhooks').set({ last_used_at: now }).where('id', '=', webhookId).where('revoked_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) === 0) throw new ApiError('UnknownWebhook', 'No webhook answers at this URL: it was never made, or it was revoked.');
  }
  if (files) await linkMessageFiles(tx, message, files, now);
  const reply = root ? await recordReply(tx, root, message, content.mentions ?? []) : undefined;
  await recordMessageEffects(tx, effects, message, now, { root, ...reply });
  return { message, repeated: false };
}

/**
 * Every check of a send that reads the store, in the caller's transaction, answering what the message
 * needs: who may be named, where the sender may post (the channel's posting gate taken), the thread it
 * joins, its files, its broadcast. chat.scheduleMessage makes them too, so that what a send would refuse
 * now is refused now. A message through a webhook makes no broadcast: `@channel` in its text is plain
 * text (docs/reference/webhooks.md), whoever holds the URL.
 */
export async function checkSendable(tx: Tx, { user: sender, appId, webhookId }: Sender, input: SendMessageInput, content: CheckedContent) {
  await checkOnBehalfOf(tx, sender, input.to, input.onBehalfOf);
  await requireTeamUsers(tx, sender.team_id, 'mentions', content.mentions);
  await requireTeamUsers(tx, sender.team_id, 'visibleTo', content.visibleTo);
  if (!isUserId(input.to)) await lockChannelPosting(tx, input.to, 'post');
  const recipient = await resolveRecipient(tx, sender, input.to, input.onBehalfOf);
  // A bot in a channel sees what the member it posts for sees (onBehalfOf, checked above).
  const viewer = input.onBehalfOf === undefined ? sender : await tx.selectFrom('users').selectAll().where('id', '=', input.onBehalfOf).executeTakeFirstOrThrow();
  const root = input.threadParent === undefined ? undefined : await resolveThreadRoot(tx, viewer, recipient.chatKey, input.threadParent);
  const files = await filesForMessage(tx, senderAsReader(sender, appId), input.files);
  const broadcast = webhookId === undefined ? await checkBroadcast(tx, sender, recipient.chatKey, input.text) : undefined;
  return { recipient, root, files, broadcast };
}

async function requireTeamUsers(tx: Tx, teamId: string, parameter: 'mentions' | 'visibleTo', userIds: string[] | undefined): Promise<void> {
  const [outsider] = await idsOutsideTeam(tx, teamId, userIds ?? []);
  if (outsider !== undefined) {
    throw invalidParameter(parameter, `${parameter} names ${outsider}, which is not an active user of your team.`);
  }
}

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
