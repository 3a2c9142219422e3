import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, EventsTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';

/** `status = 'pending'` with the value written into the SQL (see `held`). */
export const pendingLiteral = sql.lit('pending' as const);

/**
 * Held events: pending, with no due time, waiting for their app's listener (events/delivery/
 * listenerBackoff.ts). `status` is written as a literal so that SQLite sees the `events_held` partial
 * index applies (it cannot know a bound parameter's value when it plans).
 */
export const held = (eb: ExpressionBuilder<Database, 'events'>) => eb.and([eb('events.status', '=', pendingLiteral), eb('events.next_attempt_at', 'is', null)]);

const unleased = (now: number) => (eb: ExpressionBuilder<Database, 'events'>) =>
  eb.or([eb('events.claimed_until', 'is', null), eb('events.claimed_until', '<=', now)]);

/** Apps whose listener is due a probe now: backing off, past their retry time, not paused, with an event held. Soonest first. */
export async function findAppsToProbe(store: Store, request: { now: number; limit: number }): Promise<string[]> {
  const rows = await store.db
    .selectFrom('apps')
    .select('id')
    .where('listener_retry_at', '<=', request.now)
    .where('delivery_paused_at', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('events').select('events.id').whereRef('events.app_id', '=', 'apps.id').where(held)))
    .orderBy('listener_retry_at')
    .limit(request.limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Rolls a probe's transaction back when there turned out to be nothing to probe with. */
class NothingToProbe extends Error {}

/**
 * Leases the app's oldest held event to this worker as its listener's probe, if the probe is still due.
 * The app's retry time moves to the lease's end in the same transaction: that conditional update is
 * what lets only one worker (of any process) probe, and if this one dies, another probes once the lease
 * has passed. The probe's outcome sets the retry time anew.
 */
export async function claimProbe(store: Store, request: { appId: string; now: number; leaseMs: number }): Promise<EventsTable | undefined> {
  const { appId, now, leaseMs } = request;
  try {
    return await store.db.transaction().execute(async (tx) => {
      const taken = await tx
        .updateTable('apps')
        .set({ listener_retry_at: now + leaseMs })
        .where('id', '=', appId)
        .where('listener_retry_at', '<=', now)
        .where('delivery_paused_at', 'is', null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return undefined;
      const oldest = tx.selectFrom('events').select('events.id').where('events.app_id', '=', appId).where(held).where(unleased(now)).orderBy('events.id').limit(1);
      const [event] = await tx
        .updateTable('events')
        .set({ claimed_until: now + leaseMs, claim_token: randomUUID() })
        .where('id', 'in', store.dialect === 'postgres' ? oldest.forUpdate().skipLocked() : oldest)
        .returningAll()
        .execute();
      if (!event) throw new NothingToProbe();
      return event;
    });
  } catch (error) {
    if (error instanceof NothingToProbe) return undefined;
    throw error;
  }
}
