import type { Kysely } from 'kysely';

/**
 * Two settings of an app: its Flock-compatible naming (docs/flock-compatibility.md), 1 when its events
 * and URLs also carry Flock's names; and its event subscriptions (docs/reference/event-subscriptions.md),
 * a JSON array of event names, null for the defaults.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('flock_naming', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('apps').addColumn('event_subscriptions', 'text').execute();
}
