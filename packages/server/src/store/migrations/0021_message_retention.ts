import type { Kysely } from 'kysely';

/**
 * How long messages are kept (docs/operations.md, "Retention"): `teams.message_retention_days` (null:
 * forever, the default; N: messages older than N days are deleted), and per channel
 * `channels.message_retention_days` (null: the team's; 0: forever whatever the team's; N: N days).
 * Direct chats follow their team's. The deleting is the hourly retention job's, in small batches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('message_retention_days', 'integer').execute();
  await db.schema.alterTable('channels').addColumn('message_retention_days', 'integer').execute();
}
