const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/**
 * Waits before retry 1, 2, 3…: about 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, then every 24 h
 * until the app's delivery is paused (docs/reference/events.md). The first attempt goes at once.
 */
export const retryLadderMs = [10 * second, minute, 5 * minute, 30 * minute, 2 * hour, 6 * hour, 12 * hour, 24 * hour] as const;

const longestWaitMs = retryLadderMs[retryLadderMs.length - 1];

/** The wait before retry number `retryNum` (≥ 1), with ±20 % jitter so that failed events do not return in step. */
export function retryDelayMs(retryNum: number, random: () => number = Math.random): number {
  const base = retryLadderMs[Math.min(Math.max(retryNum, 1), retryLadderMs.length) - 1];
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The wait a `Retry-After` header asks for (seconds, or an HTTP date), at most the ladder's longest
 * wait; undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const value = header.trim();
  const wait = /^\d+$/.test(value) ? Number(value) * second : Date.parse(value) - now;
  if (Number.isNaN(wait)) return undefined;
  return Math.min(Math.max(wait, 0), longestWaitMs);
}
