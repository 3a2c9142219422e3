import { ApiError } from '../../errors.js';
import { lockMessageChange } from '../../store/rows/messages.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';
import { presentMessageRef } from '../presenters/messages.js';
import { checkEditWindow, isSignedInAdmin, requireChangeable, type MessageChanger } from '../policies/messageChanges.js';
import { deleteWithThread } from '../threads/deletion.js';
import { recordStreamEntries } from '../stream/record.js';
import { enqueueMessageChangeEvents } from '../triggers/messageEvents.js';
import { byPerson, recordAudit } from '../audit/record.js';
import { removeDetached, unlinkMessages } from '../files/removeFiles.js';

/**
 * chat.deleteMessage: the message leaves the history of everyone, with its reactions and its edits, in
 * one transaction with its `message.deleted` frame (every open client removes it) and the
 * chat.messageDeleted events of the apps it concerns. A parent with replies stays, emptied, for its thread
 * (threads/deletion.ts).
 */
export async function deleteMessage(ctx: CoreContext, changer: MessageChanger, { messageUid: uid }: { messageUid: string }): Promise<{ deletedAt: number }> {
  let detached: string[] = [];
  const deleted = await runChange(ctx, async (tx, effects) => {
    const now = ctx.now();
    await lockMessageChange(tx, uid, 'delete');
    const row = await findDeletableMessage(tx, changer, uid, now);
    detached = await unlinkMessages(tx, [uid]);
    const entries = await deleteWithThread(tx, row, changer.user.id, now);
    // An admin removing someone else's message is moderation: the audit log keeps who, whose and where.
    if (row.from_user_id !== changer.user.id && isSignedInAdmin(changer)) await recordAudit(tx, { ...byPerson(changer.user, (changer as { clientAddress?: string }).clientAddress ?? null), at: now, action: 'message.deletedByAdmin', target: { kind: 'message', id: uid }, details: { author: row.from_user_id, chat: row.to_id } });
    const event = { name: 'chat.messageDeleted' as const, userId: changer.user.id, message: presentMessageRef(row) };
    await enqueueMessageChangeEvents(tx, effects, row, { event, byAppId: changer.appId }, now);
    await recordStreamEntries(tx, effects, row.team_id, entries, now);
    return { deletedAt: now };
  });
  // Its files no other message carries go with it, bytes and all.
  await removeDetached(ctx, detached);
  return deleted;
}

/**
 * Who may delete: a person their own message (however it was sent: it is in their name); a token the
 * messages its user or bot sent through its app; a team admin, signed in, any message they can see. A
 * message the changer cannot see is the same "no such message" as elsewhere; one they see but may not
 * delete is PermissionDenied, and so is their own after the team's edit window.
 */
async function findDeletableMessage(db: Db, changer: MessageChanger, uid: string, now: number): Promise<MessagesTable> {
  const row = await db.selectFrom('messages').selectAll().where('uid', '=', uid).where('team_id', '=', changer.user.team_id).executeTakeFirst();
  if (!row || row.deleted_at !== null) throw noSuchMessage(uid);
  const ownBotMessage = changer.kind === 'bot' && row.from_user_id === changer.user.id;
  if (!ownBotMessage) await findVisibleMessage(db, changer.user, uid);
  await requireChangeable(db, row);
  if (isSignedInAdmin(changer)) return row;
  const own = row.from_user_id === changer.user.id && (changer.kind === 'person' || row.app_id === changer.appId);
  if (!own) {
    const who = changer.kind === 'person' ? 'a person deletes only their own messages (a team admin, any)' : `a token deletes only the messages its own ${changer.kind} sent through its app`;
    throw new ApiError('PermissionDenied', `Message ${uid} was not sent by you this way; ${who}.`, { parameter: 'messageUid' });
  }
  await checkEditWindow(db, changer, row, now, 'delete');
  return row;
}
