import type { EventsContext } from '../context.js';
import type { EventsTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { insertAttempts, type AttemptToRecord } from './attempts.js';
import { couldNotConnect, type FinishedAttempt } from './attemptDelivery.js';
import { trackDeliveryHealth } from './deliveryHealth.js';
import { afterAttempt, answeringListener, lockListenerStates, releaseHeldEvents, saveListenerState, type ListenerState, type StoredListenerState } from './listenerBackoff.js';
import { paddedList } from '../outbox/sqlLists.js';

export type EventFate = 'delivered' | 'held' | 'failed';

/** What a batch did to an app's listener, worth a line in the log. */
export type ListenerNews =
  | { kind: 'scheduled'; appId: string; eventId: string; retryAt: number; step: number }
  | { kind: 'recovered'; appId: string; eventId: string; released: number }
  | { kind: 'paused'; appId: string; eventId: string };

export interface RecordedBatch {
  /**
   * Each attempt with what became of its event, in the order they finished; a held event also with when
   * its listener is tried next (the listener's retry, docs/reference/events.md).
   */
  attempts: Array<{ attempt: FinishedAttempt; fate: EventFate; nextAttemptAt?: number }>;
  news: ListenerNews[];
  pausedAppIds: Set<string>;
  /** Apps whose held events were released: the worker looks at the outbox again. */
  releasedAppIds: Set<string>;
}

/** One event's next state, as decided while the batch is applied. */
interface EventChange {
  attempt: FinishedAttempt;
  fate: EventFate;
  /** A held event of this batch released by a later 2xx of the same batch: due then. */
  releasedAt?: number;
  /** A held event: when its listener is tried next. */
  nextAttemptAt?: number;
}

/**
 * Records finished attempts (given in the order they finished) in one transaction: each attempt's row,
 * its event's next state (delivered, held for its listener, or failed for good), its app's listener
 * backoff (listenerBackoff.ts) and failure streak. An event is never marked delivered without its
 * attempt's row, as both are in this one transaction; if it fails, nothing is recorded and the events'
 * leases run out, so they are attempted again (at least once).
 */
export async function recordAttempts(ctx: EventsContext, attempts: FinishedAttempt[], random: () => number = Math.random): Promise<RecordedBatch> {
  const batch: RecordedBatch = { attempts: [], news: [], pausedAppIds: new Set(), releasedAppIds: new Set() };
  if (attempts.length === 0) return batch;
  const changes: EventChange[] = [];
  await ctx.db.transaction().execute(async (tx) => {
    const byApp = new Map<string, FinishedAttempt[]>();
    for (const attempt of attempts) {
      const list = byApp.get(attempt.app.id);
      if (list) list.push(attempt);
      else byApp.set(attempt.app.id, [attempt]);
    }
    const appIds = [...byApp.keys()].sort();
    // The apps' rows first, before the attempts' rows name them and their events: deleteApp locks an
    // app's row first too, so the two never wait on each other in a circle (PostgreSQL).
    const stored = await lockListenerStates(tx, ctx.store.dialect, appIds);
    // An app deleted while its attempts were under way took its events along: their attempts have
    // nothing left to be the record of (and their rows would fail on the events' foreign key).
    await insertAttempts(tx, attempts.filter((attempt) => stored.has(attempt.app.id)).map(attemptToRecord));
    for (const appId of appIds) {
      // An app gone meanwhile has no state to keep: its attempts are judged as by an answering listener.
      const state = stored.get(appId) ?? { appId, failingSince: null, ...answeringListener };
      changes.push(...(await applyAppAttempts(tx, state, byApp.get(appId)!, batch, random)));
    }
    await updateEvents(tx, changes);
  });
  const byAttempt = new Map(changes.map((change) => [change.attempt, change]));
  batch.attempts = attempts.map((attempt) => {
    const { fate, nextAttemptAt, releasedAt } = byAttempt.get(attempt)!;
    const next = releasedAt ?? nextAttemptAt;
    return next === undefined ? { attempt, fate } : { attempt, fate, nextAttemptAt: next };
  });
  return batch;
}

/** One app's attempts in the order they finished: its listener's backoff, its failure streak, its events' fates. */
async function applyAppAttempts(tx: Tx, stored: StoredListenerState, attempts: FinishedAttempt[], batch: RecordedBatch, random: () => number): Promise<EventChange[]> {
  const { appId } = stored;
  let state: ListenerState = { retryAt: stored.retryAt, step: stored.step, unreachable: stored.unreachable };
  let failingSince = stored.failingSince;
  const changes: EventChange[] = [];
  let heldInBatch: EventChange[] = [];
  for (const attempt of attempts) {
    const { verdict, finishedAt: at, event } = attempt;
    const step = afterAttempt(state, { verdict, at, probe: event.next_attempt_at === null, unreachable: couldNotConnect(attempt) }, random);
    state = step.state;
    const change: EventChange = { attempt, fate: step.fate, ...(step.fate === 'held' && state.retryAt !== null ? { nextAttemptAt: state.retryAt } : {}) };
    changes.push(change);
    if (step.released) {
      const released = (await releaseHeldEvents(tx, appId, at)) + heldInBatch.length;
      for (const held of heldInBatch) held.releasedAt = at;
      heldInBatch = [];
      batch.releasedAppIds.add(appId);
      batch.news.push({ kind: 'recovered', appId, eventId: event.id, released });
    }
    if (step.fate === 'held') heldInBatch.push(change);

    const delivered = verdict.outcome === 'delivered';
    const streak = { delivered, error: delivered ? '' : verdict.error, at };
    const paused = delivered && failingSince === null ? false : await trackDeliveryHealth(tx, { ...attempt.app, delivery_failing_since: failingSince }, streak);
    failingSince = delivered ? null : (failingSince ?? at);
    if (paused) {
      batch.pausedAppIds.add(appId);
      batch.news.push({ kind: 'paused', appId, eventId: event.id });
    } else if (step.scheduled) {
      batch.news.push({ kind: 'scheduled', appId, eventId: event.id, retryAt: state.retryAt!, step: state.step });
    }
  }
  if (!sameState(state, stored)) await saveListenerState(tx, appId, state);
  return changes;
}

function sameState(a: ListenerState, b: ListenerState): boolean {
  return a.retryAt === b.retryAt && a.step === b.step && a.unreachable === b.unreachable;
}

function attemptToRecord(attempt: FinishedAttempt): AttemptToRecord {
  const { event, verdict } = attempt;
  const failure = verdict.outcome === 'delivered' ? null : verdict;
  return {
    id: attempt.id,
    eventId: event.id,
    appId: event.app_id,
    retryNum: event.retry_num,
    startedAt: attempt.startedAt,
    result: attempt.result,
    outcome: verdict.outcome,
    reason: failure?.reason ?? null,
    error: failure?.error ?? null,
  };
}

/**
 * Each event's next state, only while our claim on it stands (a replay or, after a lost lease, another
 * worker owns the event now). Delivered events that finished in the same millisecond under the same
 * claim are updated by one statement.
 */
async function updateEvents(tx: Tx, changes: EventChange[]): Promise<void> {
  const deliveredGroups = new Map<string, { claimToken: string; at: number; ids: string[] }>();
  for (const change of changes) {
    const { event, finishedAt: at } = change.attempt;
    if (change.fate === 'delivered' && event.claim_token !== null) {
      const key = `${event.claim_token} ${at}`;
      const group = deliveredGroups.get(key) ?? deliveredGroups.set(key, { claimToken: event.claim_token, at, ids: [] }).get(key)!;
      group.ids.push(event.id);
      continue;
    }
    await tx.updateTable('events').set(nextEventState(change)).where('id', '=', event.id).where('claim_token', '=', event.claim_token).execute();
  }
  for (const { claimToken, at, ids } of deliveredGroups.values()) {
    await tx.updateTable('events').set(deliveredState(at)).where('id', 'in', paddedList(ids)).where('claim_token', '=', claimToken).execute();
  }
}

const deliveredState = (at: number) =>
  ({ status: 'delivered', delivered_at: at, next_attempt_at: null, last_reason: null, last_error: null, claimed_until: null, claim_token: null, updated_at: at }) as const;

function nextEventState({ attempt, fate, releasedAt }: EventChange): Partial<EventsTable> {
  const { event, verdict, finishedAt: at } = attempt;
  if (verdict.outcome === 'delivered') return deliveredState(at);
  const failure = { last_reason: verdict.reason, last_error: verdict.error, claimed_until: null, claim_token: null, updated_at: at };
  if (fate === 'failed') return { ...failure, status: 'failed', next_attempt_at: null };
  return { ...failure, retry_num: event.retry_num + 1, next_attempt_at: releasedAt ?? null };
}
