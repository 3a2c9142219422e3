import type { Kysely } from 'kysely';

/**
 * The audit log (docs/operations.md, "Audit log"): one row per administrative or security-relevant
 * action, append-only. `actor_user_id` is null for an anonymous caller (a failed sign-in by someone who
 * is not signed in is still a known person's row: the target), `address` null for the CLI; `details` is
 * small JSON without secrets. Only the retention job deletes rows, oldest first, by (team_id, at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_app_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_log_by_team').on('audit_log').columns(['team_id', 'at', 'id']).execute();
  await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['at']).execute();
}
