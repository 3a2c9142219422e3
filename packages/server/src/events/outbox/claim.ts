import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, EventsTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { paddedList } from './sqlLists.js';

export interface FindRequest {
  now: number;
  /** At most this many events in all. */
  limit: number;
  /** At most this many events of one app. */
  perAppLimit: number;
  /** Apps to leave out (their lanes are full, or the worker already knows their next events). */
  skipAppIds: string[];
}

export interface ClaimRequest extends FindRequest {
  leaseMs: number;
}

/** A due event as the worker queues it before claiming: its id and app. */
export interface DueEvent {
  id: string;
  app_id: string;
}

/** A pending event that is due and not leased to a live worker. (A held event, due at null, never is.) */
const claimable = (now: number) => (eb: ExpressionBuilder<Database, 'events'>) =>
  eb.and([
    eb('status', '=', 'pending'),
    eb('next_attempt_at', '<=', now),
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]),
  ]);

/**
 * `claimable` for a statement that names its events by id: SQLite, having no statistics, would rather
 * walk the `events_due` index (every due event) than look the ids up, so there the due-ness columns
 * are written `+status`, which no index serves. PostgreSQL plans by statistics and needs no help.
 */
const claimableById = (now: number, dialect: Store['dialect']) => (eb: ExpressionBuilder<Database, 'events'>) => {
  const column = (name: 'status' | 'next_attempt_at') => (dialect === 'sqlite' ? sql<string | number>`+${sql.ref(name)}` : sql.ref<string | number>(name));
  return eb.and([
    eb(column('status'), '=', 'pending'),
    eb(column('next_attempt_at'), '<=', now),
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]),
  ]);
};

/** Not an event of an app whose delivery is paused. */
const ofUnpausedApp = (eb: ExpressionBuilder<Database, 'events'>) =>
  eb('app_id', 'not in', eb.selectFrom('apps').select('apps.id').where('apps.delivery_paused_at', 'is not', null));

/** Ids in one statement at most (SQLite allows 32,766 parameters, PostgreSQL 65,535); a power of two. */
const maxIdsPerStatement = 4_096;

/**
 * Due events, without claiming them: each app's oldest `perAppLimit` in lane order (by id, which is the
 * order they were made in, whenever each became due), none of a paused app; every app's first before
 * any app's second. The worker reads many at once and then claims them a few at a time as its lanes
 * free up, so that the outbox is not scanned again for every event; whatever happened to an event
 * meanwhile, the claim checks again.
 */
export async function findDueEvents(store: Store, request: FindRequest): Promise<DueEvent[]> {
  const { db } = store;
  const ranked = db
    .selectFrom('events')
    .select(['id', 'app_id', sql<number>`row_number() over (partition by app_id order by id)`.as('lane_rank')])
    .where(claimable(request.now))
    .where(ofUnpausedApp)
    .$if(request.skipAppIds.length > 0, (query) => query.where('app_id', 'not in', paddedList(request.skipAppIds)));
  return db
    .selectFrom(ranked.as('ranked'))
    .select(['id', 'app_id'])
    .where('lane_rank', '<=', request.perAppLimit)
    .orderBy('lane_rank')
    .orderBy('id')
    .limit(request.limit)
    .execute();
}

/**
 * Leases the given events to this worker, those of them that are still claimable and of an unpaused
 * app, in one statement per few thousand ids; returns the rows leased, all under one claim token. On
 * PostgreSQL several servers share the outbox: rows another server is claiming right now are skipped
 * (FOR UPDATE SKIP LOCKED), never waited for, and never claimed twice, since a row claimed meanwhile
 * is no longer claimable when locked. The lease lets a crashed server's events go to another worker
 * once it passes.
 */
export async function claimEventsById(store: Store, request: { ids: string[]; now: number; leaseMs: number }): Promise<EventsTable[]> {
  const { db } = store;
  const { now } = request;
  const claimToken = randomUUID();
  const claimed: EventsTable[] = [];
  for (let start = 0; start < request.ids.length; start += maxIdsPerStatement) {
    const ids = paddedList(request.ids.slice(start, start + maxIdsPerStatement));
    const update = db
      .updateTable('events')
      .set({ claimed_until: now + request.leaseMs, claim_token: claimToken })
      .where(claimableById(now, store.dialect))
      .where(ofUnpausedApp)
      .returningAll();
    const rows = await (
      store.dialect === 'postgres'
        ? update.where('id', 'in', db.selectFrom('events').select('id').where('id', 'in', ids).where(claimable(now)).forUpdate().skipLocked())
        : update.where('id', 'in', ids)
    ).execute();
    claimed.push(...rows);
  }
  return claimed;
}

/**
 * Leases due events to this worker, oldest first, at most `perAppLimit` per app, none of a paused app:
 * `findDueEvents` then `claimEventsById`. Another worker may claim some of the events found in between;
 * they are then not in the answer, which holds only events leased to this call.
 */
export async function claimDueEvents(store: Store, request: ClaimRequest): Promise<EventsTable[]> {
  const due = await findDueEvents(store, request);
  if (due.length === 0) return [];
  return claimEventsById(store, { ids: due.map((event) => event.id), now: request.now, leaseMs: request.leaseMs });
}

/** Gives claimed events back untouched (not attempted), for any worker to claim again at once. */
export async function releaseClaims(store: Store, events: Array<Pick<EventsTable, 'id' | 'claim_token'>>): Promise<void> {
  if (events.length === 0) return;
  const tokens = [...new Set(events.map((event) => event.claim_token ?? ''))];
  await store.db
    .updateTable('events')
    .set({ claimed_until: null, claim_token: null })
    .where('id', 'in', paddedList(events.map((event) => event.id)))
    // Only our own claims: an event claimed since by another worker stays with it.
    .where('claim_token', 'in', paddedList(tokens))
    .execute();
}
