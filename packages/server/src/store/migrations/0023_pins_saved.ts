import type { Kysely } from 'kysely';

/**
 * Pinned messages and saved items (issue 23).
 *
 * - `pins`: one row per pinned message (a message is pinned to its own chat, once), with who pinned it
 *   and when; listed per chat by (chat_key, pinned_at).
 * - `saved_items`: one row per (person, message), private to the person; listed by keyset on
 *   (user_id, saved_at, message_uid).
 *
 * Both go with their message when it is deleted (chat.deleteMessage and retention delete them in the
 * same transaction; both dialects alike, no cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pins')
    .addColumn('message_uid', 'text', (c) => c.notNull().primaryKey())
    .addColumn('chat_key', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('pinned_by', 'text', (c) => c.notNull())
    .addColumn('pinned_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pins_by_chat').on('pins').columns(['chat_key', 'pinned_at']).execute();
  await db.schema
    .createTable('saved_items')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('message_uid', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('saved_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_items_pk', ['user_id', 'message_uid'])
    .execute();
  await db.schema.createIndex('saved_items_by_time').on('saved_items').columns(['user_id', 'saved_at', 'message_uid']).execute();
  await db.schema.createIndex('saved_items_by_message').on('saved_items').column('message_uid').execute();
}
