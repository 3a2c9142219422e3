import type { FastifyBaseLogger } from 'fastify';
import type { RateRule } from '../config.js';
import type { Redis } from '../redis.js';
import { boundedKey, rateDecision, type RateDecision, type TokenBuckets } from './tokenBuckets.js';

/**
 * Where the rate-limit buckets live: this process's memory, or Redis shared by every process
 * (config.redisUrl). Both keep token buckets with the same arithmetic (`rateDecision`), so a rule means
 * the same on either, and one test suite runs against both.
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

/**
 * One token bucket per Redis hash {tokens, at}, refilled and taken from in one atomic script, so that
 * processes taking from the same bucket at once each see the other's take. The clock is the caller's
 * (the server's `now`, as the memory buckets use), and a bucket never goes back in time, so a process
 * whose clock lags another's adds no tokens. A bucket expires when it would be full again: an idle
 * key costs nothing. `cost` is 1 to take and -1 to give back.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
  at = now
end
local allowed = 0
if cost < 0 or tokens >= cost then
  tokens = math.min(burst, tokens - cost)
  allowed = 1
end
local msUntilFull = math.ceil((burst - tokens) / rate * 1000)
if msUntilFull <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
  redis.call('PEXPIRE', KEYS[1], msUntilFull)
end
return {allowed, tostring(tokens)}
`;

const TAKE_COMMAND = 'aviaryTakeToken';

type TakeCommand = (key: string, now: number, rate: number, burst: number, cost: number) => Promise<[number, string]>;

export interface RedisRateLimiterOptions {
  redis: Redis;
  /** config.redisKeyPrefix; bucket keys are `<prefix>ratelimit:<key>`. */
  keyPrefix: string;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** Where buckets are counted while Redis does not answer: this process's memory. */
  fallback: TokenBuckets;
}

/** While Redis fails, one take in this long still asks it (to notice it is back); the others go to memory at once. */
const PROBE_INTERVAL_MS = 1_000;

/**
 * Buckets in Redis. When Redis does not answer, calls are limited by this process's own buckets
 * instead (failing open to per-process limits, docs/operations.md says why), with a warning when that
 * starts and a note when Redis answers again. Meanwhile only a probe a second waits on Redis, so a
 * Redis that hangs costs one call a second its command time-out, not every call.
 */
export function redisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { redis, keyPrefix, now, log, fallback } = options;
  redis.defineCommand(TAKE_COMMAND, { numberOfKeys: 1, lua: TAKE_SCRIPT });
  const command = (redis as unknown as Record<string, TakeCommand>)[TAKE_COMMAND].bind(redis);
  let sharing = true;
  let nextProbeAt = 0;

  const run = async (key: string, rule: RateRule, cost: 1 | -1): Promise<RateDecision | undefined> => {
    if (!sharing && now() < nextProbeAt) return undefined;
    try {
      const [allowed, tokens] = await command(`${keyPrefix}ratelimit:${boundedKey(key)}`, now(), rule.rate, rule.burst, cost);
      if (!sharing) log.info('Redis answers rate-limit takes again: rate limits are shared between processes again');
      sharing = true;
      return rateDecision(allowed === 1, Number(tokens), rule);
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
