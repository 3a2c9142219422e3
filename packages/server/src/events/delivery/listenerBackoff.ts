import type { Store, Tx } from '../../store/store.js';
import { held } from '../outbox/probe.js';
import { paddedList } from '../outbox/sqlLists.js';
import { retryDelayMs } from './retrySchedule.js';
import type { Verdict } from './verdict.js';

/**
 * Backoff belongs to an app's listener, not to each event. Every event is sent at once when it is
 * made; one that fails is **held** (pending, `next_attempt_at` null) and waits for the listener. The
 * listener is tried again at `retryAt` with the app's oldest held event, the **probe**, on the ladder
 * of retrySchedule.ts: each failed probe takes the next rung. Whenever the listener answers 2xx again
 * (a probe, or a new event sent meanwhile) every held event is released, due at once, and they go out
 * oldest first in the app's lane. A probe the listener refuses for good (a 4xx) leaves the next held
 * event to probe at once.
 */
export interface ListenerState {
  /** When the probe goes; null while the listener answers. */
  retryAt: number | null;
  /** Failed probes in a row (1 after the first failure): the ladder's rung. */
  step: number;
  /** The last failure was a connection that could not be made: a bare connection may bring the probe forward. */
  unreachable: boolean;
}

export const answeringListener: ListenerState = { retryAt: null, step: 0, unreachable: false };

export interface AttemptForBackoff {
  verdict: Verdict;
  /** When the attempt ended. */
  at: number;
  /** The event was held when it was claimed: this attempt was the listener's probe. */
  probe: boolean;
  /** No connection could be made (to an address the server may reach). */
  unreachable: boolean;
}

/** What became of the event, and whether the listener's state changed in a way worth telling. */
export interface BackoffStep {
  state: ListenerState;
  fate: 'delivered' | 'held' | 'failed';
  /** The listener answered 2xx after failing: every held event of the app is due now. */
  released: boolean;
  /** The probe was (re)scheduled, for `state.retryAt`. */
  scheduled: boolean;
}

/** The listener's next state after one attempt (pure; `random` jitters the ladder). */
export function afterAttempt(state: ListenerState, attempt: AttemptForBackoff, random: () => number = Math.random): BackoffStep {
  const { verdict, at } = attempt;
  const failing = state.retryAt !== null;
  if (verdict.outcome === 'delivered') return { state: answeringListener, fate: 'delivered', released: failing, scheduled: false };
  if (verdict.outcome === 'failed') {
    // The listener answered, refusing this event for good: the next held event probes at once.
    if (failing && attempt.probe) return { state: { ...state, retryAt: at }, fate: 'failed', released: false, scheduled: true };
    return { state, fate: 'failed', released: false, scheduled: false };
  }
  if (failing && !attempt.probe) {
    // A new event failed while the listener backs off: it waits with the others. A Retry-After it brought still counts.
    const asked = verdict.retryAfterMs === undefined ? state.retryAt! : Math.max(state.retryAt!, at + verdict.retryAfterMs);
    return { state: { ...state, retryAt: asked, unreachable: attempt.unreachable }, fate: 'held', released: false, scheduled: asked !== state.retryAt };
  }
  const step = failing ? state.step + 1 : 1;
  const wait = verdict.retryAfterMs ?? retryDelayMs(step, random);
  return { state: { retryAt: at + wait, step, unreachable: attempt.unreachable }, fate: 'held', released: false, scheduled: true };
}

export interface StoredListenerState extends ListenerState {
  appId: string;
  /** The first failed attempt since the last success (the 3-day pause counts from it). */
  failingSince: number | null;
}

/**
 * The listener state of the given apps (ids sorted), locked until the transaction ends on PostgreSQL,
 * always in id order, so that two servers recording attempts of one app decide one after the other and
 * never deadlock. (SQLite has one writer: its transactions never interleave.)
 */
export async function lockListenerStates(tx: Tx, dialect: Store['dialect'], appIds: string[]): Promise<Map<string, StoredListenerState>> {
  const query = tx
    .selectFrom('apps')
    .select(['id', 'delivery_failing_since', 'listener_retry_at', 'listener_retry_step', 'listener_unreachable'])
    .where('id', 'in', paddedList(appIds))
    .orderBy('id');
  const rows = await (dialect === 'postgres' ? query.forUpdate() : query).execute();
  return new Map(
    rows.map((row) => [
      row.id,
      { appId: row.id, failingSince: row.delivery_failing_since, retryAt: row.listener_retry_at, step: row.listener_retry_step, unreachable: row.listener_unreachable === 1 },
    ]),
  );
}

export async function saveListenerState(tx: Tx, appId: string, state: ListenerState): Promise<void> {
  await tx
    .updateTable('apps')
    .set({ listener_retry_at: state.retryAt, listener_retry_step: state.step, listener_unreachable: state.unreachable ? 1 : 0 })
    .where('id', '=', appId)
    .execute();
}

/**
 * Makes every held event of the app due at `at`, except those some worker holds a live claim on (a
 * probe in flight, or this batch's own events, whose new state their own update writes). Returns how many.
 */
export async function releaseHeldEvents(tx: Tx, appId: string, at: number): Promise<number> {
  const released = await tx
    .updateTable('events')
    .set({ next_attempt_at: at, updated_at: at })
    .where('app_id', '=', appId)
    .where(held)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .executeTakeFirst();
  return Number(released.numUpdatedRows);
}

/**
 * A 2xx to a synchronous event (an install, a button press) shows that the listener answers too: if the
 * app was backing off, the backoff ends and its held events are released. Returns how many, or
 * undefined when the app was not backing off.
 */
export async function endBackoffAfter2xx(tx: Tx, appId: string, at: number): Promise<number | undefined> {
  const ended = await tx
    .updateTable('apps')
    .set({ listener_retry_at: null, listener_retry_step: 0, listener_unreachable: 0 })
    .where('id', '=', appId)
    .where('listener_retry_at', 'is not', null)
    .executeTakeFirst();
  return Number(ended.numUpdatedRows) === 0 ? undefined : releaseHeldEvents(tx, appId, at);
}
