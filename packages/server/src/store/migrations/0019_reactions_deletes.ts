import type { Kysely } from 'kysely';

/**
 * Everyday messaging: reactions, the history of edits, and the team's edit window.
 *
 * - `reactions`: one row per (message, emoji, person). A message's reactions go with it when it is
 *   deleted (chat.deleteMessage deletes them in the same transaction; both dialects alike, no cascade).
 * - `message_edits`: what a message said before each edit (chat.updateMessage), for team admins
 *   (chat.listMessageEdits); deleted with the message.
 * - `teams.message_edit_window_ms`: how long after sending people may edit or delete their own messages;
 *   0 (the default) means no limit. Team admins are never limited.
 *
 * A deleted message's row is deleted: the search index drops it through the triggers of migration 0015.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reactions')
    .addColumn('message_uid', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['message_uid', 'emoji', 'user_id'])
    .execute();
  await db.schema
    .createTable('message_edits')
    .addColumn('message_uid', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'bigint', (c) => c.notNull())
    .addColumn('edited_by', 'text', (c) => c.notNull())
    .addColumn('previous_text', 'text', (c) => c.notNull())
    .addColumn('previous_serviceml', 'text')
    .execute();
  await db.schema.createIndex('message_edits_by_message').on('message_edits').columns(['message_uid', 'edited_at']).execute();
  await db.schema.alterTable('teams').addColumn('message_edit_window_ms', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
}
