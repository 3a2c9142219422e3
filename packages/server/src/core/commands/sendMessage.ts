import type { api, ParamsOf } from '@aviary/protocol';
import { checkUrl, describeProblems, validateAttachments, validateServiceML, type Attachment } from '@aviary/serviceml';
import { sql } from 'kysely';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { DialectName, Tx } from '../../store/store.js';
import { runChange, type Effects } from '../effects/effects.js';
import { recordMessageEffects } from '../triggers/messageEffects.js';
import { newMessageUid } from '../../store/ids.js';
import { insertMessages } from '../../store/rows/messages.js';
import { checkOnBehalfOf, idsOutsideTeam, resolveRecipient } from '../policies/chat.js';
import { findMessageByClientId } from '../queries/messages.js';
import { checkVisibleName } from '../names.js';
import { recordReply } from '../threads/replies.js';
import { resolveThreadRoot } from '../threads/parent.js';
import { checkFileIds, filesForMessage, linkMessageFiles } from '../files/attachFiles.js';
import { checkBroadcast, mentionsWithBroadcast } from '../policies/broadcastMentions.js';

/** The parameters of chat.sendMessage, already decoded and type-checked; the web client sends the same. */
export type SendMessageInput = ParamsOf<typeof api.chat.sendMessage>;

export interface SentMessage {
  message: MessagesTable;
  /** True when `id` repeated a client id of the last 24 h: `message` is the earlier one, nothing was stored. */
  repeated: boolean;
}

/** How long a client id keeps answering with the message it first made. */
export const CLIENT_ID_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Sends a message as `sender` (a person, or a bot for a bot token) through `appId` (null for the web
 * client). Content is checked first, then in ONE transaction: who may be named, where the sender may post,
 * the client-id repeat check, the insert and what the message sets off (`recordMessageEffects`) — so no
 * rule can change between check and write, and the bot's event exists exactly when the message does.
 */
export async function sendMessage(
  ctx: CoreContext,
  sender: UsersTable,
  appId: string | null,
  input: SendMessageInput,
  options: SendOptions = {},
): Promise<SentMessage> {
  const content = checkContent(input, appId);
  return runChange(ctx, (tx, effects) => storeMessage(ctx, tx, effects, { sender, appId, input, content, options }));
}

/** What a message may carry beyond chat.sendMessage's params. */
export interface SendOptions {
  /** The incoming webhook it came through (messages.webhook_id). */
  webhookId?: string;
}

/**
 * sendMessage inside a change the caller runs: for a writer whose own rows must commit or roll back
 * with the message (a scheduled message marked sent in the same transaction).
 */
export async function sendMessageInChange(
  ctx: CoreContext,
  tx: Tx,
  effects: Effects,
  sender: UsersTable,
  appId: string | null,
  input: SendMessageInput,
): Promise<SentMessage> {
  const content = checkContent(input, appId);
  return storeMessage(ctx, tx, effects, { sender, appId, input, content, options: {} });
}

interface Sending {
  sender: UsersTable;
  appId: string | null;
  input: SendMessageInput;
  content: CheckedContent;
  options: SendOptions;
}

async function storeMessage(ctx: CoreContext, tx: Tx, effects: Effects, { sender, appId, input, content, options }: Sending): Promise<SentMessage> {
  await checkOnBehalfOf(tx, sender, input.to, input.onBehalfOf);
  await requireTeamUsers(tx, sender.team_id, 'mentions', content.mentions);
  await requireTeamUsers(tx, sender.team_id, 'visibleTo', content.visibleTo);
  const recipient = await resolveRecipient(tx, sender, input.to, input.onBehalfOf);
  // A bot in a channel sees what the member it posts for sees (onBehalfOf, checked above).
  const viewer = input.onBehalfOf === undefined ? sender : await tx.selectFrom('users').selectAll().where('id', '=', input.onBehalfOf).executeTakeFirstOrThrow();
  const root = input.threadParent === undefined ? undefined : await resolveThreadRoot(tx, viewer, recipient.chatKey, input.threadParent);
  const files = await filesForMessage(tx, { user: sender, appId, kind: appId === null ? 'person' : 'user' }, input.files);
  const broadcast = await checkBroadcast(tx, sender, recipient.chatKey, input.text);
  const now = ctx.now();
  if (input.id !== undefined) {
    await lockClientId(tx, ctx.store.dialect, `${sender.id}|${appId ?? ''}|${input.id}`);
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
    webhook_id: options.webhookId ?? null,
    thread_parent: root?.uid ?? null,
    also_in_channel: root && input.alsoInChannel ? 1 : 0,
    deleted_at: null,
    ...(files ? { files: JSON.stringify(files) } : {}),
  };
  await insertMessages(tx, [message]);
  if (files) await linkMessageFiles(tx, message, files, now);
  const threadEntry = root ? await recordReply(tx, root, message, content.mentions ?? []) : undefined;
  await recordMessageEffects(tx, effects, message, now, { root, threadEntry });
  return { message, repeated: false };
}

interface CheckedContent {
  mentions?: string[];
  visibleTo?: string[];
  attachments?: Attachment[];
}

/** The checks that need no database: ServiceML, attachments, sendAs, and id lists without repeats. */
export function checkContent(input: SendMessageInput, appId: string | null): CheckedContent {
  checkServiceml(input.serviceml);
  if (input.alsoInChannel !== undefined && input.threadParent === undefined) {
    throw invalidParameter('alsoInChannel', 'alsoInChannel goes with threadParent: it sends a thread reply to the channel too; leave it out for a plain message.');
  }
  checkFileIds(input.files);
  if (input.sendAs !== undefined) checkVisibleName('sendAs.name', input.sendAs.name);
  if (input.sendAs?.profileImage !== undefined) {
    const check = checkUrl(input.sendAs.profileImage, ['http', 'https']);
    if (!check.ok) throw invalidParameter('sendAs.profileImage', `sendAs.profileImage must be an http or https URL; ${check.reason}.`);
  }
  return { mentions: unique(input.mentions), visibleTo: unique(input.visibleTo), attachments: checkAttachments(input.attachments, appId) };
}

/** A message's ServiceML, when given, is a valid document (chat.sendMessage and chat.updateMessage alike). */
export function checkServiceml(serviceml: string | undefined): void {
  if (serviceml === undefined) return;
  const result = validateServiceML(serviceml);
  if (!result.ok) throw invalidParameter('serviceml', `serviceml is not valid ServiceML: ${describeProblems(result.problems)}.`);
}

/** A message's attachments as stored, when given: checked field by field and stamped with the sending app. */
export function checkAttachments(input: unknown[] | undefined, appId: string | null): Attachment[] | undefined {
  if (input === undefined) return undefined;
  const result = validateAttachments(input);
  if (!result.ok) throw invalidParameter(result.parameter, result.description);
  return result.value.map((attachment) => stampApp(attachment, appId));
}

/** An attachment belongs to the app that sent it, whatever appId the caller wrote. */
function stampApp(attachment: Attachment, appId: string | null): Attachment {
  const { appId: _claimed, ...rest } = attachment;
  return appId === null ? rest : { ...rest, appId };
}

async function requireTeamUsers(tx: Tx, teamId: string, parameter: 'mentions' | 'visibleTo', userIds: string[] | undefined): Promise<void> {
  const [outsider] = await idsOutsideTeam(tx, teamId, userIds ?? []);
  if (outsider !== undefined) {
    throw invalidParameter(parameter, `${parameter} names ${outsider}, which is not an active user of your team.`);
  }
}

/**
 * Makes concurrent sends with one client id (a client retrying before the first answer came back) take
 * turns, so the second finds the first's message instead of adding its own. SQLite needs nothing: the
 * store runs one transaction at a time on its single connection.
 */
async function lockClientId(tx: Tx, dialect: DialectName, key: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);
}

const unique = (ids: string[] | undefined): string[] | undefined => (ids === undefined ? undefined : [...new Set(ids)]);

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
