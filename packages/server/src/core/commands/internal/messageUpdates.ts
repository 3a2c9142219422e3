import type { api, ParamsOf } from '@aviary/protocol';
import type { Attachment } from '@aviary/serviceml';
import { ApiError } from '../../../errors.js';
import { editMessage, lockMessageChange } from '../../../store/rows/messages.js';
import type { MessagesTable } from '../../../store/schema.js';
import type { Db, Tx } from '../../../store/store.js';
import type { CoreContext } from '../../context.js';
import type { Effects } from '../../effects/effects.js';
import { findVisibleMessage, noSuchMessage } from '../../interactions/visibleMessage.js';
import { checkAttachments, checkSaysSomething, checkServiceml } from '../../messageContent.js';
import { checkEditWindow, requireChangeable, type MessageChanger } from '../../policies/messageChanges.js';
import { presentMessage } from '../../presenters/messages.js';
import { messageUpdated } from '../../stream/entries.js';
import { recordStreamEntries } from '../../stream/record.js';
import { enqueueMessageChangeEvents } from '../../triggers/messageEvents.js';

/**
 * A message changed (an edit, a file deleted out of it), in the change's transaction: its
 * `message.updated` frame for those who see it live or replay the stream, and chat.messageUpdated for
 * the apps it concerns that subscribe (never the app `byAppId` whose token made the change).
 */
export async function recordMessageUpdate(
  tx: Tx,
  effects: Effects,
  message: MessagesTable,
  change: { userId: string; byAppId: string | null },
  now: number,
): Promise<void> {
  const event = { name: 'chat.messageUpdated' as const, userId: change.userId, message: presentMessage(message) };
  await enqueueMessageChangeEvents(tx, effects, message, { event, byAppId: change.byAppId }, now);
  await recordStreamEntries(tx, effects, message.team_id, [messageUpdated(message)], now);
}

export type UpdateMessageInput = ParamsOf<typeof api.chat.updateMessage>;

/** Who edits: the token's user or bot and the app the token is of, or a person for themselves (no app). */
export type Editor = MessageChanger;

export interface UpdatedMessage {
  message: MessagesTable;
  editedAt: number;
}

/** The checks of an edit's content that need no database: updateMessage runs them before its change opens. */
export function checkEditContent(input: UpdateMessageInput, appId: string | null): Attachment[] | undefined {
  checkSaysSomething(input);
  checkServiceml(input.serviceml);
  return checkAttachments(input.attachments, appId);
}

/**
 * updateMessage (core/commands/updateMessage.ts) inside a change the caller runs, content checks
 * included: for a writer whose own rows must commit or roll back with the edit (a response URL's reply).
 */
export async function updateMessageInChange(ctx: Pick<CoreContext, 'now'>, tx: Tx, effects: Effects, editor: Editor, input: UpdateMessageInput): Promise<UpdatedMessage> {
  return storeMessageUpdate(ctx, tx, effects, editor, input, checkEditContent(input, editor.appId));
}

/** The edit written with what it sets off, its content already checked (checkEditContent), in the caller's transaction. */
export async function storeMessageUpdate(
  ctx: Pick<CoreContext, 'now'>,
  tx: Tx,
  effects: Effects,
  editor: Editor,
  input: UpdateMessageInput,
  attachments: Attachment[] | undefined,
): Promise<UpdatedMessage> {
  const now = ctx.now();
  await lockMessageChange(tx, input.messageUid, 'edit');
  await findEditableMessage(tx, editor, input.messageUid, now);
  const message = await editMessage(tx, input.messageUid, {
    text: input.text,
    serviceml: input.serviceml ?? null,
    edited_at: now,
    edited_by: editor.user.id,
    ...(attachments !== undefined ? { attachments: attachments.length > 0 ? JSON.stringify(attachments) : null } : {}),
  });
  await recordMessageUpdate(tx, effects, message, { userId: editor.user.id, byAppId: editor.appId }, now);
  return { message, editedAt: now };
}

/**
 * A message the editor may change: one its user or bot sent through the same app (a person: one they sent
 * themselves, through no app). A message the editor
 * cannot see (another team's, a chat they do not read, hidden by visibleTo, unknown) is the same "no such
 * message" as elsewhere; one they see but did not send this way is PermissionDenied, and so is one sent
 * before the team's edit window. A bot is a member of
 * no channel, so it sees the channel messages it sent itself and nothing else of a channel.
 */
async function findEditableMessage(db: Db, editor: Editor, uid: string, now: number): Promise<void> {
  const row = await db
    .selectFrom('messages')
    .select(['uid', 'chat_key', 'from_user_id', 'app_id', 'timestamp', 'deleted_at'])
    .where('uid', '=', uid)
    .where('team_id', '=', editor.user.team_id)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) throw noSuchMessage(uid);
  const ownBotMessage = editor.kind === 'bot' && row.from_user_id === editor.user.id;
  if (!ownBotMessage) await findVisibleMessage(db, editor.user, uid);
  await requireChangeable(db, row);
  if (row.from_user_id !== editor.user.id) {
    const who = editor.kind === 'person' ? 'a person edits only their own messages' : `a token edits only the messages its own ${editor.kind} sent`;
    throw new ApiError('PermissionDenied', `Message ${uid} was sent by someone else; ${who}.`, { parameter: 'messageUid' });
  }
  if (row.app_id !== editor.appId) throw sentElsewhere(uid, row.app_id, editor);
  await checkEditWindow(db, editor, row, now, 'edit');
}

function sentElsewhere(uid: string, appId: string | null, editor: Editor): ApiError {
  const through = appId === null ? 'from the web client' : editor.appId === null ? 'through an app' : 'through another app';
  const only = editor.appId === null ? 'only that app’s token edits it' : 'only a token of the app that sent a message edits it';
  return new ApiError('PermissionDenied', `Message ${uid} was sent ${through}; ${only}.`, { parameter: 'messageUid' });
}
