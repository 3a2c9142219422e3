import type { FastifyBaseLogger } from 'fastify';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateRule } from '../config.js';
import type { Redis } from '../redis.js';
import { boundedKey, type RateDecision, type TokenBuckets } from './tokenBuckets.js';
import { rateWindow, windowDecision } from './rateWindows.js';

/**
 * Where the rate limits are counted: token buckets in this process's memory, or fixed windows in Redis
 * shared by every process (config.redisUrl). A rule keeps its average rate and its burst on either; how
 * the two differ is in docs/operations.md, and the answers (headers, Retry-After) have the same shape.
 */
export interface RateLimiter {
  take(key: string, rule: RateRule): Promise<RateDecision>;
  /** Gives back a token taken by `take`, when a later check refused the call. */
  refund(key: string, rule: RateRule): Promise<void>;
}

export function memoryRateLimiter(buckets: TokenBuckets): RateLimiter {
  return {
    take: async (key, rule) => buckets.take(key, rule),
    refund: async (key) => buckets.refund(key),
  };
}

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** config.redisKeyPrefix; counts are kept under `<prefix>ratelimit:<key>:<window>`. */
  keyPrefix: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** Where buckets are counted while Redis does not answer: this process's memory. */
  fallback: TokenBuckets;
}

/** Counts are kept at most this long (ten years), whatever the rule: Redis refuses an expiry past its range. */
const MAX_KEPT_SECONDS = 315_360_000;

/** While Redis fails, one take in this long still asks it (to notice it is back); the others go to memory at once. */
const PROBE_INTERVAL_MS = 1_000;

/**
 * Limits shared through Redis, counted by rate-limiter-flexible's RateLimiterRedis (one atomic
 * INCRBY-and-expire script per take) in fixed windows (rateWindows.ts): a window's count is the key
 * `<prefix>ratelimit:<key>:<window>`, which expires once the window is over, so an idle client costs
 * Redis nothing. When Redis does not answer, calls are limited by this process's own buckets instead
 * (failing open to per-process limits, docs/operations.md says why), with a warning when that starts
 * and a note when Redis answers again. Meanwhile only a probe a second waits on Redis, so a Redis that
 * hangs costs one call a second its command time-out, not every call.
 */
export function redisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { redis, keyPrefix, now, log, fallback } = options;
  const counters = new Map<string, RateLimiterRedis>();
  let sharing = true;
  let nextProbeAt = 0;

  /** One counter per rule (its expiry is the rule's window); the rules are the configuration's, so few. */
  const counterFor = (rule: RateRule): RateLimiterRedis => {
    const id = `${rule.rate}/${rule.burst}`;
    let counter = counters.get(id);
    if (!counter) {
      const windowSeconds = Math.ceil(rule.burst / rule.rate);
      counter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${keyPrefix}ratelimit`,
        points: rule.burst,
        // Only how long a window's count is kept: which window a call falls in is rateWindow's.
        duration: Math.min(MAX_KEPT_SECONDS, Math.max(1, windowSeconds)),
        rejectIfRedisNotReady: true,
      });
      counters.set(id, counter);
    }
    return counter;
  };

  const run = async (key: string, rule: RateRule, cost: 1 | -1): Promise<RateDecision | undefined> => {
    if (!sharing && now() < nextProbeAt) return undefined;
    const at = now();
    const window = rateWindow(key, rule, at);
    const counter = counterFor(rule);
    const windowKey = `${boundedKey(key)}:${window.index}`;
    try {
      const counted = await (cost === 1 ? counter.consume(windowKey, 1) : counter.reward(windowKey, 1)).catch((refusal: unknown) => {
        // Over the limit is an answer (RateLimiterRes), not a failure of Redis.
        if (refusal instanceof RateLimiterRes) return refusal;
        throw refusal;
      });
      // A refund never leaves more than the burst, even when the window turned between take and refund.
      if (counted.consumedPoints < 0) await counter.penalty(windowKey, -counted.consumedPoints);
      if (!sharing) log.info('Redis answers rate-limit takes again: rate limits are shared between processes again');
      sharing = true;
      return windowDecision(counted.consumedPoints, rule, window, at);
    } catch (error) {
      if (sharing) log.warn({ err: error }, 'Redis did not answer a rate-limit take: each process limits calls on its own until it does');
      sharing = false;
      nextProbeAt = now() + PROBE_INTERVAL_MS;
      return undefined;
    }
  };

  return {
    take: async (key, rule) => (await run(key, rule, 1)) ?? fallback.take(key, rule),
    refund: async (key, rule) => {
      if (!(await run(key, rule, -1))) fallback.refund(key);
    },
  };
}
