// How long finished events and their attempts (the delivery log) are kept (docs/operations.md,
// "Retention"): a delivered event 30 days, a failed one 90, then they are deleted in small batches, each
// its own short transaction, so that neither dialect holds a long lock while the outbox is busy.
import type { Db } from '../../store/store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventRetention {
  /** How long a delivered event and its attempts are kept after their last change. */
  deliveredMs: number;
  /** The same for a failed event: longer, since a developer looks into failures. */
  failedMs: number;
  /** Events deleted per transaction. */
  batchSize: number;
}

export const defaultEventRetention: EventRetention = { deliveredMs: 30 * DAY_MS, failedMs: 90 * DAY_MS, batchSize: 500 };

export interface Pruned {
  events: number;
  attempts: number;
}

/**
 * Deletes the finished events older than their retention, with their attempts, a batch at a time.
 * Pending events are never touched, whatever their age. Safe to run in several processes at once.
 */
export async function pruneFinishedEvents(db: Db, now: number, retention: EventRetention = defaultEventRetention): Promise<Pruned> {
  const pruned: Pruned = { events: 0, attempts: 0 };
  for (const [status, keepMs] of [['delivered', retention.deliveredMs], ['failed', retention.failedMs]] as const) {
    for (;;) {
      const ids = (
        await db.selectFrom('events').select('id').where('status', '=', status).where('updated_at', '<', now - keepMs).orderBy('id').limit(retention.batchSize).execute()
      ).map((row) => row.id);
      if (ids.length === 0) break;
      await db.transaction().execute(async (tx) => {
        // The status again: an event replayed meanwhile is pending, and stays with its attempts.
        const still = tx.selectFrom('events').select('id').where('id', 'in', ids).where('status', '=', status);
        const attempts = await tx.deleteFrom('event_attempts').where('event_id', 'in', still).executeTakeFirst();
        const events = await tx.deleteFrom('events').where('id', 'in', ids).where('status', '=', status).executeTakeFirst();
        pruned.attempts += Number(attempts.numDeletedRows);
        pruned.events += Number(events.numDeletedRows);
      });
      if (ids.length < retention.batchSize) break;
    }
  }
  return pruned;
}
