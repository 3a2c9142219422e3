import type { EventsContext } from '../context.js';
import type { EventsTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { insertAttempts, listenerHeaders, noListenerResult, type AttemptToRecord } from './attempts.js';
import { trackDeliveryHealth, type AppForDelivery } from './deliveryHealth.js';
import { newAttemptId } from '../ids.js';
import { callListener, type AttemptResult, type CallCanceller } from './listenerCall.js';
import { responseSnippetBytes } from './settings.js';
import { paddedList } from '../outbox/sqlLists.js';
import { judgeAttempt, type Verdict } from './verdict.js';

/** An attempt made, to be recorded with the event's next state. */
export interface FinishedAttempt {
  /** The attempt record's id. */
  id: string;
  event: EventsTable;
  app: AppForDelivery;
  startedAt: number;
  finishedAt: number;
  result: AttemptResult;
  verdict: Verdict;
}

/**
 * One attempt at a claimed asynchronous event: sign, POST, judge. Nothing is recorded here (the caller
 * records it with `recordAttempts`; no transaction is open during the HTTP call). Undefined when
 * `cancel` abandoned the attempt at shutdown: the caller gives the claim back and records nothing, so
 * the event goes again at once elsewhere.
 */
export async function attemptClaimedEvent(ctx: EventsContext, event: EventsTable, app: AppForDelivery, cancel: CallCanceller): Promise<FinishedAttempt | undefined> {
  const startedAt = ctx.now();
  const result = app.listener_url
    ? await callListener(ctx.events.agent, {
        url: app.listener_url,
        body: event.payload,
        headers: listenerHeaders(
          { appId: app.id, appSecret: app.secret, previousSecret: app.previous_secret, previousSecretUntil: app.previous_secret_until, userId: event.user_id, eventId: event.id, retryNum: event.retry_num, retryReason: event.last_reason },
          event.payload,
          startedAt,
        ),
        answerTimeoutMs: ctx.events.settings.answerTimeoutMs,
        keepBytes: responseSnippetBytes,
        cancel,
      })
    : noListenerResult;
  if (result.kind === 'cancelled') return undefined;
  const finishedAt = ctx.now();
  return { id: newAttemptId(startedAt), event, app, startedAt, finishedAt, result, verdict: judgeAttempt(result, event.retry_num + 1, finishedAt) };
}

/**
 * Records finished attempts (given in the order they finished) in one transaction: each attempt's row,
 * its event's next state (delivered, a retry, or failed for good) and its app's failure streak. An
 * event is never marked delivered without its attempt's row, as both are in this one transaction; if it
 * fails, nothing is recorded and the events' leases run out, so they are attempted again (at least
 * once). Returns the apps whose delivery this batch paused.
 */
export async function recordAttempts(ctx: EventsContext, attempts: FinishedAttempt[]): Promise<Set<string>> {
  const pausedAppIds = new Set<string>();
  if (attempts.length === 0) return pausedAppIds;
  await ctx.db.transaction().execute(async (tx) => {
    await insertAttempts(tx, attempts.map(attemptToRecord));
    await updateEvents(tx, attempts);
    // Each app's streak as stored now, kept up to date below as each attempt is applied in turn. Apps
    // in id order (each app's attempts in the order they finished), so that two servers' batches
    // always lock apps' rows in the same order.
    const appIds = [...new Set(attempts.map((attempt) => attempt.app.id))].sort();
    const stored = await tx.selectFrom('apps').select(['id', 'delivery_failing_since']).where('id', 'in', paddedList(appIds)).execute();
    const failingSince = new Map(stored.map((app) => [app.id, app.delivery_failing_since]));
    const byApp = new Map<string, FinishedAttempt[]>();
    for (const attempt of attempts) {
      const list = byApp.get(attempt.app.id);
      if (list) list.push(attempt);
      else byApp.set(attempt.app.id, [attempt]);
    }
    for (const appId of appIds) {
      for (const attempt of byApp.get(appId) ?? []) {
        const { app, verdict, finishedAt: at } = attempt;
        const delivered = verdict.outcome === 'delivered';
        const since = failingSince.get(app.id) ?? null;
        if (delivered && since === null) continue;
        const paused = await trackDeliveryHealth(tx, { ...app, delivery_failing_since: since }, { delivered, error: delivered ? '' : verdict.error, at });
        if (paused) pausedAppIds.add(app.id);
        failingSince.set(app.id, delivered ? null : (since ?? at));
      }
    }
  });
  return pausedAppIds;
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
async function updateEvents(tx: Tx, attempts: FinishedAttempt[]): Promise<void> {
  const deliveredGroups = new Map<string, { claimToken: string; at: number; ids: string[] }>();
  for (const { event, verdict, finishedAt: now } of attempts) {
    if (verdict.outcome === 'delivered' && event.claim_token !== null) {
      const key = `${event.claim_token} ${now}`;
      const group = deliveredGroups.get(key) ?? deliveredGroups.set(key, { claimToken: event.claim_token, at: now, ids: [] }).get(key)!;
      group.ids.push(event.id);
      continue;
    }
    const released = { claimed_until: null, claim_token: null, updated_at: now };
    const next =
      verdict.outcome === 'delivered'
        ? { ...released, status: 'delivered' as const, delivered_at: now, next_attempt_at: null, last_reason: null, last_error: null }
        : verdict.outcome === 'retry'
          ? { ...released, retry_num: event.retry_num + 1, next_attempt_at: now + verdict.retryInMs, last_reason: verdict.reason, last_error: verdict.error }
          : { ...released, status: 'failed' as const, next_attempt_at: null, last_reason: verdict.reason, last_error: verdict.error };
    await tx.updateTable('events').set(next).where('id', '=', event.id).where('claim_token', '=', event.claim_token).execute();
  }
  for (const { claimToken, at, ids } of deliveredGroups.values()) {
    await tx
      .updateTable('events')
      .set({ status: 'delivered', delivered_at: at, next_attempt_at: null, last_reason: null, last_error: null, claimed_until: null, claim_token: null, updated_at: at })
      .where('id', 'in', paddedList(ids))
      .where('claim_token', '=', claimToken)
      .execute();
  }
}
