import type { Kysely } from 'kysely';

/** When the sender last edited a message through chat.updateMessage; null for a message never edited. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('edited_at', 'bigint').execute();
}
