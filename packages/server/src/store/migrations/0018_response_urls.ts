import type { Kysely } from 'kysely';

/**
 * Deferred replies (docs/reference/events.md, "Replying later: responseUrl"): each `client.*` event sent to
 * a listener carries a URL the app may POST up to five replies to within 30 minutes. The row keeps only
 * the SHA-256 of the URL's token, what the reply may do (the app, the person, the chat they acted in, the
 * message that carried the button) and how many replies were taken. No foreign keys: an app or person
 * gone since is refused when the URL is used, and the retention job deletes expired rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('response_urls')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('chat', 'text', (c) => c.notNull())
    .addColumn('message_uid', 'text')
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('response_urls_expiry').on('response_urls').column('expires_at').execute();
}
