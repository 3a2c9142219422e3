import type { Kysely } from 'kysely';

/**
 * `people_last_seen`: when each person last used the web client (a session's sign-in, then its use at
 * most once a minute). The admin console's "last active" read only the sessions still alive, so a person
 * who signed out, or whose sessions ended with a deactivation or a password reset, showed as never
 * active. A table of its own, not a column of `users`: a change to a user's row counts as a change of
 * credentials (the token cache's version, migration 0003), and this one changes every minute.
 * Transient: no export needs it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('people_last_seen')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
}
