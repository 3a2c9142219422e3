import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import { messageUidFloor } from '../../store/ids.js';
import { deleteMessageRow, emptyMessage, lockMessages } from '../../store/rows/messages.js';
import type { Tx } from '../../store/store.js';
import { recountThread } from '../threads/replies.js';
import type { Database } from '../../store/schema.js';
import type { CoreContext } from '../context.js';
import { removeDetached, unlinkMessages } from '../files/removeFiles.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The longest retention one may set: a hundred years (longer is "forever"). */
export const MAX_RETENTION_DAYS = 36_500;

type MessageScope = (eb: ExpressionBuilder<Database, 'messages'>) => Expression<SqlBool>;

/** What the store, its files' storage and the log of a pass are. */
export type RetentionContext = Pick<CoreContext, 'db' | 'config' | 'log'>;

/** What a pass deleted: messages, and the files that only they carried (with their bytes). */
export interface PrunedMessages {
  messages: number;
  files: number;
}

/**
 * Deletes the messages past their retention (docs/operations.md, "Retention"): in each channel with one
 * (its own, else its team's), and in the direct chats of each team with one. Each batch is a query for
 * the next `batchSize` uids older than the cut-off (in uid order, after the last batch: uids begin with
 * their time, so a channel's is a range of the (chat_key, uid) index) and a transaction of its own that
 * deletes them with their reactions and edits, so neither dialect holds a lock for long while people write. The search index follows by
 * its triggers. The files that only the deleted messages carried are deleted after each batch commits,
 * bytes included; a file another message still carries stays. Safe in several processes at once.
 */
export async function pruneExpiredMessages(ctx: RetentionContext, now: number, batchSize = 500): Promise<PrunedMessages> {
  const { db } = ctx;
  const deleted: PrunedMessages = { messages: 0, files: 0 };
  const channels = await db
    .selectFrom('channels')
    .innerJoin('teams', 'teams.id', 'channels.team_id')
    .select(['channels.id as id', 'channels.message_retention_days as own', 'teams.message_retention_days as team'])
    .where((eb) => eb.or([eb('channels.message_retention_days', '>', 0), eb.and([eb('channels.message_retention_days', 'is', null), eb('teams.message_retention_days', 'is not', null)])]))
    .execute();
  for (const channel of channels) {
    const days = channel.own ?? channel.team!;
    await deleteOlder(ctx, (eb) => eb('chat_key', '=', channel.id), now - days * DAY_MS, batchSize, deleted, now);
  }
  const teams = await db.selectFrom('teams').select(['id', 'message_retention_days as days']).where('message_retention_days', 'is not', null).execute();
  for (const team of teams) {
    await deleteOlder(ctx, (eb) => eb.and([eb('team_id', '=', team.id), eb('chat_key', 'like', '%|%')]), now - team.days! * DAY_MS, batchSize, deleted, now);
  }
  return deleted;
}

async function deleteOlder(ctx: RetentionContext, scope: MessageScope, cutoff: number, batchSize: number, deleted: PrunedMessages, now: number): Promise<void> {
  const { db } = ctx;
  let after = '';
  for (;;) {
    const uids = (
      await db
        .selectFrom('messages')
        .select('uid')
        .where(scope)
        .where('uid', '>', after)
        .where('uid', '<', messageUidFloor(cutoff))
        .where('timestamp', '<', cutoff)
        .orderBy('uid')
        .limit(batchSize)
        .execute()
    ).map((row) => row.uid);
    if (uids.length === 0) return;
    const { result, detached } = await db.transaction().execute((tx) => pruneBatch(tx, uids, now));
    deleted.messages += result;
    deleted.files += await removeDetached(ctx, detached);
    if (uids.length < batchSize) return;
    after = uids[uids.length - 1];
  }
}

/**
 * One batch, in its transaction: the messages deleted with what hangs on them, but a parent whose thread
 * goes on after the batch (replies kept, or not reached yet), which stays emptied, as chat.deleteMessage
 * empties one, so that its thread is still read under it; it goes with its last reply (settleThreads).
 * Answers how many messages were deleted and the files detached from them.
 */
async function pruneBatch(tx: Tx, uids: readonly string[], now: number): Promise<{ result: number; detached: string[] }> {
  // A reply, a reaction or an edit of one of them under way is waited for, and deleted below.
  await lockMessages(tx, uids, 'delete');
  const threaded = new Set(
    (await tx.selectFrom('messages').select('thread_parent').distinct().where('thread_parent', 'in', uids).where('uid', 'not in', uids).execute()).map((row) => row.thread_parent!),
  );
  const gone = uids.filter((uid) => !threaded.has(uid));
  if (threaded.size > 0) {
    for (const { uid } of await tx.selectFrom('messages').select('uid').where('uid', 'in', [...threaded]).where('deleted_at', 'is', null).execute()) await emptyMessage(tx, uid, now);
  }
  // Their files no other message carries are detached, and deleted with their bytes once this commits.
  const detached = await unlinkMessages(tx, uids);
  if (gone.length === 0) return { result: 0, detached };
  const roots = (await tx.selectFrom('messages').select('thread_parent').distinct().where('uid', 'in', gone).where('thread_parent', 'is not', null).execute())
    .map((row) => row.thread_parent!)
    .filter((uid) => !gone.includes(uid));
  // A message's reactions, the history of its edits (0019), its pin and its saves (0023) go with it.
  await tx.deleteFrom('reactions').where('message_uid', 'in', gone).execute();
  await tx.deleteFrom('pins').where('message_uid', 'in', gone).execute();
  await tx.deleteFrom('saved_items').where('message_uid', 'in', gone).execute();
  await tx.deleteFrom('message_edits').where('message_uid', 'in', gone).execute();
  await tx.deleteFrom('threads').where('parent_uid', 'in', gone).execute();
  await tx.deleteFrom('thread_follows').where('parent_uid', 'in', gone).execute();
  const result = await tx.deleteFrom('messages').where('uid', 'in', gone).executeTakeFirst();
  return { result: Number(result.numDeletedRows) + (await settleThreads(tx, roots)), detached };
}

/**
 * The threads that lost replies in a batch: their summaries counted again, and an emptied parent whose
 * last reply went deleted with it. Answers how many parents went.
 */
async function settleThreads(tx: Tx, roots: readonly string[]): Promise<number> {
  if (roots.length === 0) return 0;
  await lockMessages(tx, roots, 'delete');
  let gone = 0;
  for (const root of await tx.selectFrom('messages').selectAll().where('uid', 'in', roots).execute()) {
    const { replyCount } = await recountThread(tx, root);
    if (replyCount === 0 && root.deleted_at !== null && (await deleteMessageRow(tx, root.uid))) gone += 1;
  }
  return gone;
}
