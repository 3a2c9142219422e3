import type { StreamEntryDraft } from '../../store/rows/streamEntries.js';
import { deleteMessageRow, emptyMessage, lockMessages } from '../../store/rows/messages.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { messageDeleted, messageUpdated } from '../stream/entries.js';
import { recountThread } from './replies.js';

/**
 * How chat.deleteMessage removes a message with threads in mind, returning the frames it shows:
 *
 * - a parent with replies stays, emptied and marked deleted ("This message was deleted"), so its thread
 *   stays readable: its readers get message.updated with `deletedAt`;
 * - a reply goes, and its thread's summary is counted again (thread.updated); the last reply of a
 *   deleted parent takes the parent with it (message.deleted for both);
 * - any other message goes as before (message.deleted).
 */
export async function deleteWithThread(tx: Tx, row: MessagesTable, deletedBy: string, now: number): Promise<StreamEntryDraft[]> {
  const hasReplies = await tx.selectFrom('threads').select('parent_uid').where('parent_uid', '=', row.uid).executeTakeFirst();
  if (hasReplies) {
    return [messageUpdated(await emptyMessage(tx, row.uid, now))];
  }
  await deleteMessageRow(tx, row.uid);
  const entries = [messageDeleted(row, deletedBy)];
  if (row.thread_parent === null) return entries;
  // Held before it is read: a deletion of the parent under way (which keeps it, emptied, while this reply
  // is there) is waited for and seen, and this last reply then takes the parent with it.
  await lockMessages(tx, [row.thread_parent], 'delete');
  const root = await tx.selectFrom('messages').selectAll().where('uid', '=', row.thread_parent).executeTakeFirst();
  if (!root) return entries;
  const summary = await recountThread(tx, root);
  if (summary.replyCount === 0 && root.deleted_at !== null) {
    await deleteMessageRow(tx, root.uid);
    return [...entries, messageDeleted(root, deletedBy)];
  }
  return [...entries, summary.entry];
}
