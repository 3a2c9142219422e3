import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../../src/api/rateLimiter.js';
import { rateWindow } from '../../src/api/rateWindows.js';
import { TokenBuckets } from '../../src/api/tokenBuckets.js';
import { closeRedis, openRedis, type Redis } from '../../src/redis.js';
import { rateLimitBackends, redisScratch, redisTestUrl, type RedisScratch } from '../helpers/redis.js';

/**
 * Memory keeps token buckets, Redis fixed windows (rate-limiter-flexible): both allow a burst, count per
 * key and take refunds alike; their arithmetic over time is tested apart below.
 */
for (const backend of rateLimitBackends) {
  describe(`rate limiter [${backend}]`, () => {
    let clock = 1_700_000_000_000;
    let redis: Redis | undefined;
    let scratch: RedisScratch | undefined;
    let limiter: RateLimiter;
    let keyNumber = 0;
    /** A key no other test uses. */
    const freshKey = () => `key-${++keyNumber}`;

    beforeAll(async () => {
      const now = () => clock;
      if (backend === 'memory') {
        limiter = memoryRateLimiter(new TokenBuckets(now));
        return;
      }
      scratch = redisScratch();
      const log = pino({ level: 'silent' });
      redis = await openRedis(redisTestUrl, log);
      limiter = redisRateLimiter({ redis, keyPrefix: scratch.prefix, now, log, fallback: new TokenBuckets(now) });
    });
    afterAll(async () => {
      if (redis) await closeRedis(redis);
      await scratch?.cleanUp();
    });

    it('allows a burst, then refuses', async () => {
      const key = freshKey();
      const rule = { rate: 1, burst: 3 };
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await limiter.take(key, rule));
      expect(taken.map(({ allowed, limit, remaining }) => [allowed, limit, remaining])).toEqual([
        [true, 3, 2],
        [true, 3, 1],
        [true, 3, 0],
        [false, 3, 0],
      ]);
      expect(taken[3].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it.runIf(backend === 'memory')('answers the time until the next token, and refills with the clock a fraction at a time, never past the burst', async () => {
      const key = freshKey();
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await limiter.take(key, { rate: 1, burst: 3 }));
      expect(taken.map(({ resetSeconds, retryAfterSeconds }) => [resetSeconds, retryAfterSeconds])).toEqual([
        [1, 0],
        [2, 0],
        [3, 0],
        [3, 1],
      ]);
      const other = freshKey();
      const rule = { rate: 2, burst: 2 };
      await limiter.take(other, rule);
      await limiter.take(other, rule);
      expect((await limiter.take(other, rule)).allowed).toBe(false);
      clock += 250; // half a token
      expect(await limiter.take(other, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      clock += 250;
      expect(await limiter.take(other, rule)).toMatchObject({ allowed: true, remaining: 0 });
      clock += 60_000;
      expect(await limiter.take(other, rule)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it.runIf(backend === 'memory')('keeps slow rules (per minute) exact: sign-in failures wait a minute for their next token', async () => {
      const key = freshKey();
      const rule = { rate: 1 / 60, burst: 2 };
      await limiter.take(key, rule);
      await limiter.take(key, rule);
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
      clock += 30_000;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
    });

    it.runIf(backend === 'redis')('counts a burst per window of burst / rate seconds, and answers the time until the window ends', async () => {
      const key = freshKey();
      const rule = { rate: 1, burst: 3 };
      clock = rateWindow(key, rule, clock).endsAt; // the first instant of a window
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await limiter.take(key, rule));
      expect(taken).toEqual([
        { allowed: true, limit: 3, remaining: 2, resetSeconds: 3, retryAfterSeconds: 0 },
        { allowed: true, limit: 3, remaining: 1, resetSeconds: 3, retryAfterSeconds: 0 },
        { allowed: true, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 0 },
        { allowed: false, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 3 },
      ]);
      clock += 2_500;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      clock += 500; // the next window: a whole burst again
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 3 });
    });

    it.runIf(backend === 'redis')('keeps slow rules (per minute) to their window: two sign-in failures per two minutes', async () => {
      const key = freshKey();
      const rule = { rate: 1 / 60, burst: 2 };
      clock = rateWindow(key, rule, clock).endsAt;
      await limiter.take(key, rule);
      clock += 30_000;
      await limiter.take(key, rule);
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 90 });
      clock += 90_000;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it.runIf(backend === 'redis')('ends the windows of different keys at different instants', () => {
      const rule = { rate: 1, burst: 60 };
      const ends = new Set(Array.from({ length: 20 }, (_, i) => rateWindow(`spread-${i}`, rule, clock).endsAt));
      expect(ends.size).toBeGreaterThan(10);
    });

    it('gives a token back on refund, never more than the burst', async () => {
      const key = freshKey();
      const rule = { rate: 1, burst: 2 };
      await limiter.take(key, rule);
      await limiter.take(key, rule);
      await limiter.refund(key, rule);
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: true, remaining: 0 });
      const untouched = freshKey();
      await limiter.refund(untouched, rule);
      await limiter.refund(untouched, rule);
      expect(await limiter.take(untouched, rule)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('keeps every key apart, a made-up long key included', async () => {
      const rule = { rate: 1, burst: 1 };
      const long = `${freshKey()}${'k'.repeat(100_000)}`;
      expect((await limiter.take(long, rule)).allowed).toBe(true);
      expect((await limiter.take(long, rule)).allowed).toBe(false);
      expect((await limiter.take(`${long}!`, rule)).allowed).toBe(true);
      expect((await limiter.take(freshKey(), rule)).allowed).toBe(true);
    });

    it.runIf(backend === 'redis')('stores a window’s count under a bounded key that expires once the window is over', async () => {
      const key = `${freshKey()}${'k'.repeat(10_000)}`;
      await limiter.take(key, { rate: 1 / 60, burst: 10 }); // a window of ten minutes
      const keys = await scratch!.keys();
      const stored = keys.find((name) => name.includes('#'));
      expect(stored?.length).toBeLessThan(scratch!.prefix.length + 100);
      const ttl = await scratch!.redis.pttl(stored!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(600_000);
    });
  });
}
