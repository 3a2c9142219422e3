import { sql, type Kysely } from 'kysely';

/**
 * Backoff belongs to an app's listener, not to each event (docs/reference/events.md, "Retries").
 *
 * - `apps.listener_retry_at`: while the listener is failing, when its oldest waiting event is tried
 *   again (the probe); null while it answers.
 * - `apps.listener_retry_step`: how many probes in a row failed, the rung of the retry ladder.
 * - `apps.listener_unreachable`: 1 when the last failure was a connection that could not be made (not to
 *   a refused internal address), so that a bare connection to the listener may bring the probe forward.
 * - `events_held`: a pending event whose `next_attempt_at` is null waits for its app's listener; the
 *   probe takes the oldest, and a 2xx releases them all. Few rows, looked up by app in id order.
 * - `apps_listener_backoff`: the apps whose listener is failing, by when their probe is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds columns one at a time.
  await db.schema.alterTable('apps').addColumn('listener_retry_at', 'bigint').execute();
  await db.schema.alterTable('apps').addColumn('listener_retry_step', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('apps').addColumn('listener_unreachable', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createIndex('events_held')
    .on('events')
    .columns(['app_id', 'id'])
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .where(sql.ref('next_attempt_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('apps_listener_backoff')
    .on('apps')
    .columns(['listener_retry_at'])
    .where(sql.ref('listener_retry_at'), 'is not', null)
    .execute();
}
