import type { Kysely } from 'kysely';

/**
 * `events_by_status` (status, app_id): GET /metrics counts events by app and status at every scrape.
 * Without it that count reads every event row (seconds on SQLite at a million events, blocking the
 * process); with it the count reads this index alone, and the pending events of a backlog are a range.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_by_status').on('events').columns(['status', 'app_id']).execute();
}
