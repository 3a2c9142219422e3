import { eventHeaders, type RetryReason } from '@aviary/protocol';
import type { AttemptResult } from './listenerCall.js';
import { retryAfterMs } from './retrySchedule.js';

/**
 * What an asynchronous attempt means for its event. How long a retry waits is not the event's to say:
 * the app's listener backs off as a whole (listenerBackoff.ts); a retry only carries the wait the
 * listener asked for, if it asked.
 */
export type Verdict =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; reason: RetryReason; error: string; retryAfterMs?: number }
  | { outcome: 'failed'; reason: RetryReason; error: string };

const noRetryHeader = eventHeaders.noRetry.toLowerCase();

/**
 * docs/reference/events.md: a 2xx is success; time-outs, connection failures, 5xx, 408 and 429 are retried
 * (after `Retry-After` when given, else on the ladder); any other answer, or one with
 * `X-Service-No-Retry: 1`, fails the event for good.
 */
export function judgeAttempt(result: AttemptResult, now: number): Verdict {
  if (result.kind === 'unanswered') return { outcome: 'retry', reason: result.reason, error: result.error };
  const { status, headers } = result;
  if (status >= 200 && status < 300) return { outcome: 'delivered' };
  const error = `the listener answered HTTP ${status}`;
  if (headers[noRetryHeader]?.trim() === '1') {
    return { outcome: 'failed', reason: 'http_error', error: `${error} with ${eventHeaders.noRetry}: 1` };
  }
  const retryable = status === 429 || status === 408 || status >= 500;
  if (!retryable) return { outcome: 'failed', reason: 'http_error', error };
  const wait = retryAfterMs(headers['retry-after'], now);
  return { outcome: 'retry', reason: status === 429 ? 'rate_limited' : 'http_error', error, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
}
