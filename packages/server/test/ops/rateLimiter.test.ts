import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../../src/api/rateLimiter.js';
import { TokenBuckets } from '../../src/api/tokenBuckets.js';
import { closeRedis, openRedis, type Redis } from '../../src/redis.js';
import { rateLimitBackends, redisScratch, redisTestUrl, type RedisScratch } from '../helpers/redis.js';

/** Both backends keep token buckets with the same arithmetic: every answer below is the same on either. */
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

    it('allows a burst, then refuses with the time until the next token', async () => {
      const key = freshKey();
      const rule = { rate: 1, burst: 3 };
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await limiter.take(key, rule));
      expect(taken).toEqual([
        { allowed: true, limit: 3, remaining: 2, resetSeconds: 1, retryAfterSeconds: 0 },
        { allowed: true, limit: 3, remaining: 1, resetSeconds: 2, retryAfterSeconds: 0 },
        { allowed: true, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 0 },
        { allowed: false, limit: 3, remaining: 0, resetSeconds: 3, retryAfterSeconds: 1 },
      ]);
    });

    it('refills with the clock, a fraction of a token at a time, never past the burst', async () => {
      const key = freshKey();
      const rule = { rate: 2, burst: 2 };
      await limiter.take(key, rule);
      await limiter.take(key, rule);
      expect((await limiter.take(key, rule)).allowed).toBe(false);
      clock += 250; // half a token
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      clock += 250;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: true, remaining: 0 });
      clock += 60_000;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('keeps slow rules (per minute) exact: sign-in failures wait a minute for their next token', async () => {
      const key = freshKey();
      const rule = { rate: 1 / 60, burst: 2 };
      await limiter.take(key, rule);
      await limiter.take(key, rule);
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
      clock += 30_000;
      expect(await limiter.take(key, rule)).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
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

    it.runIf(backend === 'redis')('stores a bucket under a bounded key that expires when the bucket would be full again', async () => {
      const key = `${freshKey()}${'k'.repeat(10_000)}`;
      await limiter.take(key, { rate: 1 / 60, burst: 10 });
      const keys = await scratch!.keys();
      const stored = keys.find((name) => name.includes('#'));
      expect(stored?.length).toBeLessThan(scratch!.prefix.length + 100);
      const ttl = await scratch!.redis.pttl(stored!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });
  });
}
