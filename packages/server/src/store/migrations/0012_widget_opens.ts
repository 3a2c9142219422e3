import type { Kysely } from 'kysely';

/**
 * A widget or browser page a person's client opened with an event in its URL is in the app's delivery
 * log too: the URL it went to (without its query, which holds the token), null for a listener delivery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('opened_url', 'text').execute();
}
