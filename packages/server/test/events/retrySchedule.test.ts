import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryDelayMs, retryLadderMs } from '../../src/events/delivery/retrySchedule.js';

const minute = 60_000;
const hour = 60 * minute;

describe('the retry ladder', () => {
  it('waits about 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, then 24 h for ever', () => {
    const middle = () => 0.5;
    const waits = Array.from({ length: 11 }, (_, i) => retryDelayMs(i + 1, middle));
    expect(waits).toEqual([10_000, minute, 5 * minute, 30 * minute, 2 * hour, 6 * hour, 12 * hour, 24 * hour, 24 * hour, 24 * hour, 24 * hour]);
  });

  it('jitters each wait by at most 20 % either way', () => {
    for (const [index, base] of retryLadderMs.entries()) {
      expect(retryDelayMs(index + 1, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelayMs(index + 1, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
    }
  });

  it('reads Retry-After as seconds or an HTTP date, at most 24 h, ignoring nonsense', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:05:00 GMT', now)).toBe(5 * minute);
    expect(retryAfterMs('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(String(7 * 24 * 3600), now)).toBe(24 * hour);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
