import { eventHeaders, type RetryReason } from '@aviary/protocol';
import type { AttemptResult } from './listenerCall.js';
import { retryAfterMs, retryDelayMs } from './retrySchedule.js';

/** What an asynchronous attempt means for its event. */
export type Verdict =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; reason: RetryReason; error: string; retryInMs: number }
  | { outcome: 'failed'; reason: RetryReason; error: string };

const noRetryHeader = eventHeaders.noRetry.toLowerCase();

/**
 * docs/reference/events.md: a 2xx is success; time-outs, connection failures, 5xx, 408 and 429 are retried
 * (429 and others after `Retry-After` when given, else on the ladder); any other answer, or one with
 * `X-Service-No-Retry: 1`, fails the event for good.
 */
export function judgeAttempt(result: AttemptResult, nextRetryNum: number, now: number, random: () => number = Math.random): Verdict {
  if (result.kind === 'unanswered') {
    return { outcome: 'retry', reason: result.reason, error: result.error, retryInMs: retryDelayMs(nextRetryNum, random) };
  }
  const { status, headers } = result;
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  const error = `the listener answered HTTP ${status}`;
  if (headers[noRetryHeader]?.trim() === '1') {
    return { outcome: 'failed', reason: 'http_error', error: `${error} with ${eventHeaders.noRetry}: 1` };
  }
  const retryable = status === 429 || status === 408 || status >= 500;
  if (!retryable) return { outcome: 'failed', reason: 'http_error', error };
  const retryInMs = retryAfterMs(headers['retry-after'], now) ?? retryDelayMs(nextRetryNum, random);
  return { outcome: 'retry', reason: status === 429 ? 'rate_limited' : 'http_error', error, retryInMs };
}
