import type { FastifyBaseLogger } from 'fastify';
import type { FinishedAttempt } from './attemptDelivery.js';
import type { EventFate, ListenerNews, RecordedBatch } from './recordAttempts.js';

const infoLevels = new Set(['trace', 'debug', 'info']);

/** How much of a refusing listener's answer a log line quotes. */
const quotedAnswerBytes = 200;

/**
 * One JSON line per delivery outcome, once it is recorded: info for what happened, warn for a listener
 * that refused or could not be reached. Every line names the app, the event and the attempt (the
 * attempt's id is the id of that POST, as the developer's attempt history shows it). Nothing of the
 * app's secret, the signed token or the headers is logged, nor the listener URL (it may carry a key).
 */
export function logRecordedBatch(log: FastifyBaseLogger, batch: RecordedBatch): void {
  for (const { attempt, fate, nextAttemptAt } of batch.attempts) logAttempt(log, attempt, fate, nextAttemptAt);
  for (const news of batch.news) logListenerNews(log, news);
}

function logAttempt(log: FastifyBaseLogger, attempt: FinishedAttempt, fate: EventFate, nextAttemptAt: number | undefined): void {
  const { event, result, verdict } = attempt;
  // The commonest line: not even its fields are made when info is not logged.
  if (verdict.outcome === 'delivered' && !infoLevels.has(log.level)) return;
  const fields = { appId: event.app_id, eventId: event.id, attemptId: attempt.id, retryNum: event.retry_num, latencyMs: result.durationMs };
  if (verdict.outcome === 'delivered') return log.info({ ...fields, status: result.kind === 'answered' ? result.status : undefined }, 'event delivered');
  const next = nextAttemptAt === undefined ? undefined : new Date(nextAttemptAt).toISOString();
  const then = fate === 'failed' ? 'failed for good' : `waits for the listener${next ? `, tried next at ${next}` : ''}`;
  const failure = { ...fields, fate, ...(next ? { nextAttemptAt: next } : {}) };
  if (result.kind === 'answered') {
    const answer = result.body.subarray(0, quotedAnswerBytes).toString('utf8');
    return log.warn({ ...failure, status: result.status, answer }, `event refused by the listener (HTTP ${result.status}); ${then}`);
  }
  log.warn({ ...failure, reason: result.reason, error: result.error }, `listener unreachable (${result.reason}); ${then}`);
}

/** What a synchronous delivery did, for its line in the log. */
export interface SyncOutcome {
  appId: string;
  eventId: string;
  event: string;
  latencyMs: number;
  /** The request that caused the delivery (a button pressed, a slash command, an install; the message of a preview). */
  requestId?: string;
  /** The listener's status, when it answered. */
  status?: number;
  /** Why it did not answer 2xx: `http_error`, `timeout`, `connection_failed`, `no_listener`. */
  reason?: string;
  error?: string;
}

/**
 * A synchronous delivery (`app.install`, `chat.generateUrlPreview`, `client.*` to the listener) is one
 * attempt, never retried: delivered is info, anything else a warning that says so.
 */
export function logSyncDelivery(log: FastifyBaseLogger, outcome: SyncOutcome): void {
  const { reason, ...fields } = outcome;
  if (reason === undefined) return log.info({ ...fields, synchronous: true }, 'synchronous event delivered');
  const what = reason === 'http_error' ? `refused by the listener (HTTP ${outcome.status})` : `not delivered: listener unreachable (${reason})`;
  log.warn({ ...fields, reason, synchronous: true }, `synchronous event ${what}; not retried`);
}

export function logListenerNews(log: FastifyBaseLogger, news: ListenerNews): void {
  const { appId, eventId } = news;
  if (news.kind === 'scheduled') {
    const retryAt = new Date(news.retryAt).toISOString();
    return log.info({ appId, eventId, retryAt, step: news.step }, `listener retry scheduled for ${retryAt}: its oldest waiting event goes then`);
  }
  if (news.kind === 'recovered') return log.info({ appId, eventId, released: news.released }, `listener answered again: ${waitingEvents(news.released)} released`);
  log.info({ appId, eventId }, 'event delivery paused after 3 days of failures; the developer was told');
}

const waitingEvents = (count: number): string => `${count} waiting event${count === 1 ? '' : 's'}`;
