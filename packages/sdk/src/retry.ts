/**
 * When to call again after a 429 or a 503: after the answer's `Retry-After` (seconds, or an HTTP date),
 * plus up to 20 % jitter so that many clients told the same time do not all come back at once; without
 * a `Retry-After`, after an exponential backoff from one second.
 */

/** A `Retry-After` value in milliseconds from now, or undefined when it is absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

const backoffBaseMs = 1000;
const jitterShare = 0.2;

/** The wait before the next attempt, in milliseconds; undefined when the client gives up. */
export function retryDelay(options: {
  status: number;
  retryAfterMs: number | undefined;
  attempt: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  random: () => number;
}): number | undefined {
  if (options.status !== 429 && options.status !== 503) return undefined;
  if (options.attempt >= options.maxRetries) return undefined;
  const base = options.retryAfterMs ?? backoffBaseMs * 2 ** options.attempt;
  if (base > options.maxRetryAfterMs) return undefined;
  return Math.round(base + base * jitterShare * options.random());
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
