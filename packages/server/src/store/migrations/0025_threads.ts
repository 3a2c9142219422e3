import { sql, type Kysely } from 'kysely';

/**
 * Threads (issue 23).
 *
 * - `messages.thread_parent`: the uid of the thread's root message for a reply, null for any other
 *   message; `messages.also_in_channel`: 1 for a reply also sent to the channel (its history shows it),
 *   0 otherwise; `messages.deleted_at`: set when a parent with replies was deleted: the row stays, emptied,
 *   so that its thread stays readable ("This message was deleted").
 * - `threads`: one row per message with replies: how many, the newest reply, a few recent participants.
 * - `thread_follows`: who follows which thread (the parent's author, whoever replies or is mentioned in
 *   it; unfollowing keeps the row with following = 0) and how far they read it.
 *
 * A thread is read by keyset on (thread_parent, uid); a follower's list by (user_id, following).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('thread_parent', 'text').execute();
  await db.schema.alterTable('messages').addColumn('also_in_channel', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('messages').addColumn('deleted_at', 'bigint').execute();
  // Partial: most messages are no reply, and sending them pays nothing for this index.
  await db.schema.createIndex('messages_by_thread').on('messages').columns(['thread_parent', 'uid']).where(sql.ref('thread_parent'), 'is not', null).execute();
  await db.schema
    .createTable('threads')
    .addColumn('parent_uid', 'text', (c) => c.notNull().primaryKey())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('reply_count', 'integer', (c) => c.notNull())
    .addColumn('last_reply_uid', 'text', (c) => c.notNull())
    .addColumn('last_reply_at', 'bigint', (c) => c.notNull())
    .addColumn('participants', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('thread_follows')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('parent_uid', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('following', 'integer', (c) => c.notNull())
    .addColumn('read_up_to', 'text')
    .addPrimaryKeyConstraint('thread_follows_pk', ['user_id', 'parent_uid'])
    .execute();
  await db.schema.createIndex('thread_follows_by_parent').on('thread_follows').column('parent_uid').execute();
}
