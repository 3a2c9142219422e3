import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, EventsTable } from '../store/schema.js';
import type { Store } from '../store/store.js';

export interface ClaimRequest {
  now: number;
  /** At most this many events in all. */
  limit: number;
  /** At most this many events of one app (its lane's size). */
  perAppLimit: number;
  /** Apps whose lanes are full here: none of their events. */
  skipAppIds: string[];
  leaseMs: number;
}

/** A pending event that is due and not leased to a live worker. */
const claimable = (now: number) => (eb: ExpressionBuilder<Database, 'events'>) =>
  eb.and([
    eb('status', '=', 'pending'),
    eb('next_attempt_at', '<=', now),
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]),
  ]);

/**
 * Leases due events to this worker, oldest first, at most `perAppLimit` per app, none of a paused app,
 * in one statement (it runs after every commit that enqueues, so round trips count). On PostgreSQL
 * several servers share the outbox: rows another server is claiming right now are skipped (FOR UPDATE
 * SKIP LOCKED), never waited for, and never claimed twice, since a row claimed meanwhile is no longer
 * claimable when locked. The lease lets a crashed server's events go to another worker once it passes.
 */
export async function claimDueEvents(store: Store, request: ClaimRequest): Promise<EventsTable[]> {
  const { db } = store;
  const { now } = request;
  const ranked = db
    .selectFrom('events')
    .select(['id', 'next_attempt_at', sql<number>`row_number() over (partition by app_id order by next_attempt_at, id)`.as('lane_rank')])
    .where(claimable(now))
    .where('app_id', 'not in', db.selectFrom('apps').select('id').where('delivery_paused_at', 'is not', null))
    .$if(request.skipAppIds.length > 0, (query) => query.where('app_id', 'not in', request.skipAppIds));
  const candidates = db
    .selectFrom(ranked.as('ranked'))
    .select('id')
    .where('lane_rank', '<=', request.perAppLimit)
    .orderBy('next_attempt_at')
    .limit(request.limit);
  const claimed =
    store.dialect === 'postgres'
      ? db.selectFrom('events').select('id').where('id', 'in', candidates).where(claimable(now)).forUpdate().skipLocked()
      : candidates;
  return db
    .with('claimed', () => claimed)
    .updateTable('events')
    .set({ claimed_until: now + request.leaseMs, claim_token: randomUUID() })
    .where('id', 'in', (eb) => eb.selectFrom('claimed').select('claimed.id'))
    .where(claimable(now))
    .returningAll()
    .execute();
}

/** Gives claimed events back untouched (not attempted), for any worker to claim again at once. */
export async function releaseClaims(store: Store, events: Array<Pick<EventsTable, 'id' | 'claim_token'>>): Promise<void> {
  if (events.length === 0) return;
  const tokens = [...new Set(events.map((event) => event.claim_token ?? ''))];
  await store.db
    .updateTable('events')
    .set({ claimed_until: null, claim_token: null })
    .where('id', 'in', events.map((event) => event.id))
    // Only our own claims: an event claimed since by another worker stays with it.
    .where('claim_token', 'in', tokens)
    .execute();
}
