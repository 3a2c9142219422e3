import type { MessageModel } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';
import { presentMessage } from '../presenters/messages.js';
import { visibleMessages } from '../queries/saved.js';
import { threadFollowUpdated } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';
import { heldRoot } from './parent.js';
import { presentThread } from './summary.js';

/** A person's state of one thread, as threads.follow, threads.unfollow and threads.markRead answer it. */
export interface FollowState {
  messageUid: string;
  following: boolean;
  readUpTo?: string;
}

/** Follows a thread: `rejoin` false leaves someone who unfollowed it unfollowed (the parent's author on a new reply). */
export async function followThread(tx: Tx | Db, input: { userId: string; root: MessagesTable; rejoin: boolean }): Promise<void> {
  await tx
    .insertInto('thread_follows')
    .values({ user_id: input.userId, parent_uid: input.root.uid, team_id: input.root.team_id, following: 1, read_up_to: null })
    .onConflict((conflict) => (input.rejoin ? conflict.columns(['user_id', 'parent_uid']).doUpdateSet({ following: 1 }) : conflict.columns(['user_id', 'parent_uid']).doNothing()))
    .execute();
}

/** The root of the thread a visible message is in (itself, unless it is a reply). */
async function visibleRoot(db: Db, person: UsersTable, messageUid: string): Promise<MessagesTable> {
  const { row } = await findVisibleMessage(db, person, messageUid);
  const root = await heldRoot(db, row.thread_parent ?? row.uid);
  if (!root) throw noSuchMessage(messageUid);
  return root;
}

/** threads.follow and threads.unfollow: the change and the person's thread.followUpdated frame, in one transaction. */
export async function changeFollow(ctx: CommandContext, person: UsersTable, { messageUid, following }: { messageUid: string; following: boolean }): Promise<FollowState> {
  return runChange(ctx, async (tx, effects) => {
    const root = await visibleRoot(tx, person, messageUid);
    await tx
      .insertInto('thread_follows')
      .values({ user_id: person.id, parent_uid: root.uid, team_id: root.team_id, following: following ? 1 : 0, read_up_to: null })
      .onConflict((conflict) => conflict.columns(['user_id', 'parent_uid']).doUpdateSet({ following: following ? 1 : 0 }))
      .execute();
    return recordState(tx, effects, person, root, ctx.now());
  });
}

/**
 * threads.markRead: up to `uid` (a reply of the thread) or its newest reply; a marker only moves forward.
 * Reading does not follow: the row it makes for someone who never followed says `following` 0.
 */
export async function markThreadRead(ctx: CommandContext, person: UsersTable, { messageUid, uid }: { messageUid: string; uid?: string | undefined }): Promise<FollowState> {
  return runChange(ctx, async (tx, effects) => {
    const root = await visibleRoot(tx, person, messageUid);
    let upTo = uid;
    if (upTo !== undefined) {
      const reply = await tx.selectFrom('messages').select('uid').where('uid', '=', upTo).where('thread_parent', '=', root.uid).executeTakeFirst();
      if (!reply) throw invalidParameter('uid', `Message ${upTo} is not a reply in the thread of ${root.uid}; send one of its replies, or leave uid out for the newest.`);
    } else {
      upTo = (await tx.selectFrom('threads').select('last_reply_uid').where('parent_uid', '=', root.uid).executeTakeFirst())?.last_reply_uid;
    }
    if (upTo !== undefined) {
      await tx
        .insertInto('thread_follows')
        .values({ user_id: person.id, parent_uid: root.uid, team_id: root.team_id, following: 0, read_up_to: upTo })
        .onConflict((conflict) => conflict.columns(['user_id', 'parent_uid']).doNothing())
        .execute();
      await tx
        .updateTable('thread_follows')
        .set({ read_up_to: upTo })
        .where('user_id', '=', person.id)
        .where('parent_uid', '=', root.uid)
        .where((eb) => eb.or([eb('read_up_to', 'is', null), eb('read_up_to', '<', upTo!)]))
        .execute();
    }
    return recordState(tx, effects, person, root, ctx.now());
  });
}

async function recordState(tx: Tx, effects: Parameters<typeof recordStreamEntries>[1], person: UsersTable, root: MessagesTable, now: number): Promise<FollowState> {
  const row = await tx.selectFrom('thread_follows').select(['following', 'read_up_to']).where('user_id', '=', person.id).where('parent_uid', '=', root.uid).executeTakeFirst();
  const state = { following: Number(row?.following ?? 0) === 1, ...(row?.read_up_to ? { readUpTo: row.read_up_to } : {}) };
  await recordStreamEntries(tx, effects, root.team_id, [threadFollowUpdated(person.id, root, state)], now);
  return { messageUid: root.uid, ...state };
}

export interface FollowedThread {
  message: MessageModel;
  following: boolean;
  readUpTo?: string;
  unread: boolean;
}

/** threads.list: a keyset page on (last reply time, parent uid), newest first; the cursor is the last row's "time:uid". */
export async function listFollowed(db: Db, person: UsersTable, page: { cursor?: string; limit: number }): Promise<{ threads: FollowedThread[]; nextCursor?: string }> {
  let query = db
    .selectFrom('thread_follows as f')
    .innerJoin('threads as t', 't.parent_uid', 'f.parent_uid')
    .selectAll('t')
    .select('f.read_up_to')
    .where('f.user_id', '=', person.id)
    .where('f.following', '=', 1);
  if (page.cursor !== undefined) {
    const [at, uid] = page.cursor.split(':');
    const lastAt = Number(at);
    query = query.where((eb) => eb.or([eb('t.last_reply_at', '<', lastAt), eb.and([eb('t.last_reply_at', '=', lastAt), eb('t.parent_uid', '<', uid)])]));
  }
  const rows = await query.orderBy('t.last_reply_at', 'desc').orderBy('t.parent_uid', 'desc').limit(page.limit + 1).execute();
  const shown = rows.slice(0, page.limit);
  const visible = await visibleMessages(db, person, shown.map((row) => row.parent_uid));
  const threads = shown.flatMap((row) => {
    const parent = visible.get(row.parent_uid);
    if (!parent) return [];
    const readUpTo = row.read_up_to ?? undefined;
    const unread = readUpTo === undefined || readUpTo < row.last_reply_uid;
    return [{ message: { ...presentMessage(parent), thread: presentThread(row) }, following: true, ...(readUpTo ? { readUpTo } : {}), unread }];
  });
  const last = shown.at(-1);
  return rows.length > page.limit && last ? { threads, nextCursor: `${Number(last.last_reply_at)}:${last.parent_uid}` } : { threads };
}
