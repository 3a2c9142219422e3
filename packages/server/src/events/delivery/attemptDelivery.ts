import type { EventsContext } from '../context.js';
import type { EventsTable } from '../../store/schema.js';
import { listenerHeaders } from './attempts.js';
import { flockListenerBody } from './flockNaming.js';
import type { AppForDelivery } from './deliveryHealth.js';
import { newAttemptId } from '../ids.js';
import type { AttemptResult, CallCanceller } from './listenerCall.js';
import { callAppListener } from './listenerTransport.js';
import { responseSnippetBytes } from './settings.js';
import { judgeAttempt, type Verdict } from './verdict.js';

/** An attempt made, to be recorded with the event's next state. */
export interface FinishedAttempt {
  /** The attempt record's id, made when the attempt started: attempts of one process sort by when they started. */
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
  const id = newAttemptId(startedAt);
  const flockNaming = app.flock_naming === 1;
  const body = flockNaming ? flockListenerBody(event.name, event.payload) : event.payload;
  const result = await callAppListener(ctx.events, app, {
    body,
    headers: listenerHeaders(
      { appId: app.id, appSecret: app.secret, previousSecret: app.previous_secret, previousSecretUntil: app.previous_secret_until, userId: event.user_id, eventId: event.id, retryNum: event.retry_num, retryReason: event.last_reason, flockNaming },
      body,
      startedAt,
    ),
    answerTimeoutMs: ctx.events.settings.answerTimeoutMs,
    keepBytes: responseSnippetBytes,
    cancel,
  });
  if (result.kind === 'cancelled') return undefined;
  const finishedAt = ctx.now();
  return { id, event, app, startedAt, finishedAt, result, verdict: judgeAttempt(result, finishedAt) };
}

/** The attempt could not connect to a listener the server may reach: a bare connection can tell when it is back. */
export function couldNotConnect(attempt: FinishedAttempt): boolean {
  const { result, app } = attempt;
  return app.listener_url !== null && result.kind === 'unanswered' && result.reason === 'connection_failed' && !result.internalAddress;
}
