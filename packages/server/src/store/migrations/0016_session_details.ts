import type { Kysely } from 'kysely';

/**
 * What a person sees of their sessions (sessions.list): the User-Agent and client address a session
 * signed in with, and when it was last used (written at most once a minute). Sessions from before this
 * migration have none of them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('client_address', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
}
