import { threadLimits } from '@aviary/protocol';
import type { StreamEntryDraft } from '../../store/rows/streamEntries.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { followedReply, threadUpdated } from '../stream/entries.js';
import { followThread } from './follows.js';
import { presentThread } from './summary.js';

export { presentThread };

/**
 * What a new reply changes, in its message's transaction: the root's summary (one more reply, the newest,
 * its sender first among the participants), and who follows: the root's author unless they unfollowed,
 * the sender and the people it mentions (replying or being named follows again). The sender has read the
 * thread up to their own reply. Returns the reply's frames besides message.created (the root's
 * thread.updated, and thread.followedReply for the followers who read it) and those followers but the
 * sender, whom it notifies.
 */
export async function recordReply(tx: Tx, root: MessagesTable, reply: MessagesTable, mentions: readonly string[]): Promise<{ entries: StreamEntryDraft[]; followers: string[] }> {
  // One statement makes the summary or counts one more in it, and takes its row's lock on PostgreSQL: two
  // replies at once both count, and take turns below. Made apart from the count, a summary the deletion of
  // the thread's last reply removed between the two was missing for the count, and the reply was lost.
  const counted = await tx
    .insertInto('threads')
    .values({ parent_uid: root.uid, chat_key: root.chat_key, team_id: root.team_id, reply_count: 1, last_reply_uid: reply.uid, last_reply_at: reply.timestamp, participants: '[]' })
    .onConflict((conflict) =>
      conflict.column('parent_uid').doUpdateSet((eb) => ({
        reply_count: eb('threads.reply_count', '+', 1),
        last_reply_uid: eb.ref('excluded.last_reply_uid'),
        last_reply_at: eb.ref('excluded.last_reply_at'),
      })),
    )
    .returning(['reply_count', 'participants'])
    .executeTakeFirstOrThrow();
  const participants = JSON.stringify([...new Set([reply.from_user_id, ...(JSON.parse(counted.participants) as string[])])].slice(0, threadLimits.participantsShown));
  await tx.updateTable('threads').set({ participants }).where('parent_uid', '=', root.uid).execute();
  await followThread(tx, { userId: root.from_user_id, root, rejoin: false });
  for (const userId of new Set([reply.from_user_id, ...mentions])) await followThread(tx, { userId, root, rejoin: true });
  // Forward only, as threads.markRead moves it: a newer reply marked read while this one committed stays read.
  await tx
    .updateTable('thread_follows')
    .set({ read_up_to: reply.uid })
    .where('user_id', '=', reply.from_user_id)
    .where('parent_uid', '=', root.uid)
    .where((eb) => eb.or([eb('read_up_to', 'is', null), eb('read_up_to', '<', reply.uid)]))
    .execute();
  const summary = threadUpdated(root, presentThread({ reply_count: counted.reply_count, participants, last_reply_uid: reply.uid, last_reply_at: reply.timestamp }));
  const followers = (
    await tx.selectFrom('thread_follows').select('user_id').where('parent_uid', '=', root.uid).where('following', '=', 1).where('user_id', '!=', reply.from_user_id).execute()
  ).map((row) => row.user_id);
  return { entries: followers.length > 0 ? [summary, followedReply(reply, followers)] : [summary], followers };
}

/**
 * After a reply was deleted: the summary counted again from the replies left (the thread's index makes it
 * one range), or the row removed with the last reply (a summary of 0 replies). Returns the count and the entry.
 */
export async function recountThread(tx: Tx, root: MessagesTable): Promise<{ replyCount: number; entry: StreamEntryDraft }> {
  // A write first, for the row's lock on PostgreSQL (replies sent meanwhile wait for the recount).
  await tx.updateTable('threads').set((eb) => ({ reply_count: eb.ref('reply_count') })).where('parent_uid', '=', root.uid).execute();
  const replies = tx.selectFrom('messages').where('thread_parent', '=', root.uid);
  const { count } = await replies.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
  const recent = await replies.select(['uid', 'from_user_id', 'timestamp']).orderBy('uid', 'desc').limit(50).execute();
  const [newest] = recent;
  if (!newest) {
    await tx.deleteFrom('threads').where('parent_uid', '=', root.uid).execute();
    return { replyCount: 0, entry: threadUpdated(root, { replyCount: 0, participants: [], lastReplyUid: root.uid, lastReplyAt: Number(root.timestamp) }) };
  }
  const summary = {
    reply_count: Number(count),
    last_reply_uid: newest.uid,
    last_reply_at: Number(newest.timestamp),
    participants: JSON.stringify([...new Set(recent.map((row) => row.from_user_id))].slice(0, threadLimits.participantsShown)),
  };
  await tx.updateTable('threads').set(summary).where('parent_uid', '=', root.uid).execute();
  return { replyCount: summary.reply_count, entry: threadUpdated(root, presentThread(summary)) };
}
