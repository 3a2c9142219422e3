import type { Kysely } from 'kysely';

/**
 * The admin console and profile status (issue 25).
 *
 * - `channels.archived_at`: when a team admin archived the channel (null: not archived). An archived
 *   channel is read-only: it keeps its members and messages, is still searchable and readable, and
 *   refuses new messages.
 * - `teams.who_may_create_channels`: `everyone` (the default: what every team could do before),
 *   `members` (members and admins, no guests) or `admins`.
 * - `users.status_text`, `users.status_emoji`, `users.status_expires_at`: a person's status, shown
 *   next to their name until it expires (null: no status, or no expiry).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('archived_at', 'bigint').execute();
  await db.schema.alterTable('teams').addColumn('who_may_create_channels', 'text', (c) => c.notNull().defaultTo('everyone')).execute();
  await db.schema.alterTable('users').addColumn('status_text', 'text').execute();
  await db.schema.alterTable('users').addColumn('status_emoji', 'text').execute();
  await db.schema.alterTable('users').addColumn('status_expires_at', 'bigint').execute();
}
