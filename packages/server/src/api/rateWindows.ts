import type { RateRule } from '../config.js';
import type { RateDecision } from './tokenBuckets.js';

/** One fixed window of a shared limit (docs/operations.md "Rate limits"): which one `now` is in, and when it ends. */
export interface RateWindow {
  /** Counts from the epoch; part of the Redis key, so that a new window starts a new count. */
  index: number;
  /** Milliseconds since the epoch. */
  endsAt: number;
  lengthMs: number;
}

/**
 * The shared limits count in fixed windows, rate-limiter-flexible's model: at most `burst` calls per
 * window of burst / rate seconds, so that a rule keeps its average rate and its burst. The window is
 * told by the server's clock (injectable, as for the memory buckets) and shifted by a per-key offset,
 * so that the windows of different keys do not all end at the same instant.
 */
export function rateWindow(key: string, rule: RateRule, now: number): RateWindow {
  const lengthMs = Math.max(1, Math.round((rule.burst / rule.rate) * 1000));
  const offset = keyOffset(key) % lengthMs;
  const index = Math.floor((now + offset) / lengthMs);
  return { index, endsAt: (index + 1) * lengthMs - offset, lengthMs };
}

/** What a take answers, from the calls counted in its window (this one included). */
export function windowDecision(counted: number, rule: RateRule, window: RateWindow, now: number): RateDecision {
  const allowed = counted <= rule.burst;
  const untilEnd = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
  return {
    allowed,
    limit: rule.burst,
    remaining: Math.max(0, rule.burst - counted),
    resetSeconds: untilEnd,
    retryAfterSeconds: allowed ? 0 : untilEnd,
  };
}

/** FNV-1a: cheap, stable across processes, and enough to spread window ends. */
function keyOffset(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
