import type { Kysely } from 'kysely';

/** The event engine: the outbox, every delivery attempt, per-app delivery health and the team's system bot. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('synchronous', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('retry_num', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('last_reason', 'text')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', 'bigint')
    .addColumn('claimed_until', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The worker's question: which pending events are due?
  await db.schema.createIndex('events_due').on('events').columns(['status', 'next_attempt_at']).execute();
  // The developer's question: this app's events, newest first.
  await db.schema.createIndex('events_app').on('events').columns(['app_id', 'id']).execute();

  await db.schema
    .createTable('event_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('retry_num', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('reason', 'text')
    .addColumn('error', 'text')
    .addColumn('response_snippet', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_attempts_event').on('event_attempts').columns(['event_id', 'id']).execute();

  // One column per statement: SQLite adds columns one at a time.
  await db.schema.alterTable('apps').addColumn('delivery_paused_at', 'bigint').execute();
  await db.schema.alterTable('apps').addColumn('delivery_failing_since', 'bigint').execute();
  await db.schema.alterTable('teams').addColumn('system_user_id', 'text').execute();
}
