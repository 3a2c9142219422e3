import { deliveryStatuses, eventNames, type AnyEvent, type DeliveredEvent, type DeliveryAttempt } from '@aviary/protocol';
import type { EventsContext } from '../context.js';
import { invalidParameter } from '../../errors.js';
import type { EventsTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

const defaultPageSize = 50;
const maxPageSize = 200;

/** The app's events, newest first; `before` is an event id (the last one of the previous page). */
export async function listAppEvents(db: Db, appId: string, options: { limit?: number; before?: string; status?: string; name?: string }): Promise<DeliveredEvent[]> {
  const status = options.status;
  if (options.name !== undefined && !(eventNames as readonly string[]).includes(options.name)) {
    throw invalidParameter('name', `name must be one of ${eventNames.join(', ')}`);
  }
  if (status !== undefined && !(deliveryStatuses as readonly string[]).includes(status)) {
    throw invalidParameter('status', `status must be one of ${deliveryStatuses.join(', ')}`);
  }
  const app = await db.selectFrom('apps').select(['delivery_paused_at', 'listener_retry_at']).where('id', '=', appId).executeTakeFirst();
  const paused = app?.delivery_paused_at != null;
  // While the app is paused its pending events show as paused, and none as pending.
  if ((status === 'paused' && !paused) || (status === 'pending' && paused)) return [];
  const storedStatus = status === 'paused' ? 'pending' : status;
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? defaultPageSize), 1), maxPageSize);
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('app_id', '=', appId)
    .$if(options.before !== undefined, (query) => query.where('id', '<', options.before!))
    .$if(options.name !== undefined, (query) => query.where('name', '=', options.name!))
    .$if(storedStatus !== undefined, (query) => query.where('status', '=', storedStatus as EventsTable['status']))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => presentEvent(row, paused, app?.listener_retry_at ?? null));
}

export async function listEventAttempts(db: Db, eventId: string): Promise<DeliveryAttempt[]> {
  const rows = await db.selectFrom('event_attempts').selectAll().where('event_id', '=', eventId).orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    retryNum: row.retry_num,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    status: row.status,
    reason: row.reason,
    error: row.error,
    responseSnippet: row.response_snippet,
    outcome: row.outcome,
  }));
}

/** What a replay needs: the CLI, which runs no worker, gives an `events` whose wake does nothing. */
export type ReplayContext = Pick<EventsContext, 'db' | 'now'> & { events: Pick<EventsContext['events'], 'wake'> };

/**
 * Sends an asynchronous event again, as new: the same id (`jti`), retry number 0, due now. A paused
 * app stays paused: the event waits with the others until `resumeAppDelivery`.
 */
export async function replayEvent(ctx: ReplayContext, appId: string, eventId: string): Promise<void> {
  const now = ctx.now();
  const replayed = await ctx.db
    .updateTable('events')
    .set(replayedState(now))
    .where('id', '=', eventId)
    .where('app_id', '=', appId)
    .where('synchronous', '=', 0)
    .executeTakeFirst();
  if (Number(replayed.numUpdatedRows) === 0) {
    const event = await ctx.db.selectFrom('events').select('synchronous').where('id', '=', eventId).where('app_id', '=', appId).executeTakeFirst();
    throw invalidParameter(
      'eventId',
      event ? 'a synchronous event cannot be replayed: its answer was for a caller who is no longer waiting' : 'the app has no event with this id',
    );
  }
  ctx.events.wake();
}

/**
 * Replays every failed asynchronous event of the app, as replayEvent replays one; returns how many.
 * Failed synchronous events stay: their answer was for a caller who is no longer waiting.
 */
export async function replayFailedEvents(ctx: ReplayContext, appId: string): Promise<number> {
  const now = ctx.now();
  const replayed = await ctx.db
    .updateTable('events')
    .set(replayedState(now))
    .where('app_id', '=', appId)
    .where('status', '=', 'failed')
    .where('synchronous', '=', 0)
    .executeTakeFirst();
  ctx.events.wake();
  return Number(replayed.numUpdatedRows);
}

/** Pauses the app's asynchronous delivery by hand, as days of failures do: claims skip a paused app. */
export async function pauseAppDelivery(ctx: EventsContext, appId: string): Promise<void> {
  await ctx.db.updateTable('apps').set({ delivery_paused_at: ctx.now() }).where('id', '=', appId).where('delivery_paused_at', 'is', null).execute();
}

/** Ends a pause: the failure streak and the listener's backoff start afresh, and every pending event is due at once. */
export async function resumeAppDelivery(ctx: EventsContext, appId: string): Promise<void> {
  const now = ctx.now();
  const released = await ctx.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('apps')
      .set({ delivery_paused_at: null, delivery_failing_since: null, listener_retry_at: null, listener_retry_step: 0, listener_unreachable: 0 })
      .where('id', '=', appId)
      .execute();
    const due = await tx.updateTable('events').set({ next_attempt_at: now, updated_at: now }).where('app_id', '=', appId).where('status', '=', 'pending').executeTakeFirst();
    return Number(due.numUpdatedRows);
  });
  ctx.log.info({ appId, released }, `event delivery resumed by the developer: ${released} waiting event${released === 1 ? '' : 's'} released`);
  ctx.events.wake();
}

/** An event sent again as new: retry number 0, due now, its past failure and any claim on it gone. */
const replayedState = (now: number) =>
  ({
    status: 'pending', retry_num: 0, next_attempt_at: now, last_reason: null, last_error: null,
    delivered_at: null, claimed_until: null, claim_token: null, updated_at: now,
  }) as const;

/** An event as the delivery log shows it; a pending event of a paused app shows as paused. */
export function presentEvent(row: EventsTable, appPaused: boolean, listenerRetryAt: number | null): DeliveredEvent {
  const waitsForListener = row.status === 'pending' && row.next_attempt_at === null;
  return {
    id: row.id,
    appId: row.app_id,
    userId: row.user_id,
    name: row.name,
    event: JSON.parse(row.payload) as AnyEvent,
    synchronous: row.synchronous === 1,
    status: row.status === 'pending' && appPaused ? 'paused' : row.status,
    retryNum: row.retry_num,
    nextAttemptAt: waitsForListener ? listenerRetryAt : row.next_attempt_at,
    lastReason: row.last_reason,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
    ...(row.opened_url !== null ? { openedUrl: row.opened_url } : {}),
  };
}
