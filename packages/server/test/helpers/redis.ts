import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const redisTestUrl = process.env.AVIARY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connection for a test to look at Redis with (PUBSUB NUMSUB, CLIENT KILL); the test closes it. */
export function redisAdmin(): Redis {
  return new Redis(redisTestUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: () => null });
}

async function redisReachable(): Promise<boolean> {
  const redis = redisAdmin();
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (error) {
    // Under CI a missing Redis is a failure, never a quiet skip.
    if (process.env.CI === 'true') throw new Error(`Redis is required under CI=true but unreachable at ${redisTestUrl}: ${String(error)}`);
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Whether the suites that need Redis run (always under CI=true). */
export const redisAvailable = await redisReachable();

/** A key and channel prefix of a test's own, so that tests running at once on one Redis never hear each other. */
export function uniqueRedisPrefix(): string {
  return `aviary-test:${randomBytes(6).toString('hex')}:`;
}
