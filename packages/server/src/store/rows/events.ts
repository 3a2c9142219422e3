import type { EventsTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

/** What every event row says; the delivery state (retry number, lease, outcome) starts empty unless given. */
export type EventFields = Pick<EventsTable, 'id' | 'app_id' | 'user_id' | 'name' | 'payload' | 'synchronous' | 'status' | 'created_at' | 'updated_at'> &
  Partial<EventsTable>;

/** The one writer of event rows: the outbox's pending events, the record of synchronous deliveries and of widget opens. */
export async function insertEvent(db: Db | Tx, fields: EventFields): Promise<void> {
  const row: EventsTable = {
    retry_num: 0, next_attempt_at: null, last_reason: null, last_error: null, delivered_at: null, claimed_until: null, claim_token: null, opened_url: null,
    ...fields,
  };
  await db.insertInto('events').values(row).execute();
}
