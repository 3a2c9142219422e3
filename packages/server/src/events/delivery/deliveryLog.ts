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
  for (const { attempt, fate } of batch.attempts) logAttempt(log, attempt, fate);
  for (const news of batch.news) logListenerNews(log, news);
}

function logAttempt(log: FastifyBaseLogger, attempt: FinishedAttempt, fate: EventFate): void {
  const { event, result, verdict } = attempt;
  // The commonest line: not even its fields are made when info is not logged.
  if (verdict.outcome === 'delivered' && !infoLevels.has(log.level)) return;
  const fields = { appId: event.app_id, eventId: event.id, attemptId: attempt.id, retryNum: event.retry_num, latencyMs: result.durationMs };
  if (verdict.outcome === 'delivered') return log.info({ ...fields, status: result.kind === 'answered' ? result.status : undefined }, 'event delivered');
  const then = fate === 'failed' ? 'failed for good' : 'waits for the listener';
  if (result.kind === 'answered') {
    const answer = result.body.subarray(0, quotedAnswerBytes).toString('utf8');
    return log.warn({ ...fields, status: result.status, answer, fate }, `event refused by the listener (HTTP ${result.status}); ${then}`);
  }
  log.warn({ ...fields, reason: result.reason, error: result.error, fate }, `listener unreachable (${result.reason}); ${then}`);
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
