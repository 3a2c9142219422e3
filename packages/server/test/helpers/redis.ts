import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';

export const redisTestUrl = process.env.AVIARY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const redis = new Redis(redisTestUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  redis.on('error', () => undefined);
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

export type RateLimitBackend = 'memory' | 'redis';

/** In memory always; in Redis whenever one is reachable (and always under CI=true). */
export const rateLimitBackends: RateLimitBackend[] = redisAvailable ? ['memory', 'redis'] : ['memory'];

/** A key and channel prefix no other test uses, so that tests running at once on one Redis never meet. */
export function uniqueRedisPrefix(): string {
  return `aviary-test:${randomBytes(6).toString('hex')}:`;
}

/** A connection for a test to look at Redis with (PUBSUB NUMSUB, CLIENT KILL); the test quits it. */
export function redisAdmin(): Redis {
  return new Redis(redisTestUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
}

export interface RedisScratch {
  /** A key prefix no other test uses (config.redisKeyPrefix). */
  prefix: string;
  /** A connection to the test Redis, to look at what the server wrote. */
  redis: Redis;
  /** The keys under the prefix. */
  keys(): Promise<string[]>;
  /** Deletes every key under the prefix and closes the connection. */
  cleanUp(): Promise<void>;
}

/** A corner of the test Redis for one test: its own key prefix, emptied afterwards. */
export function redisScratch(): RedisScratch {
  const prefix = uniqueRedisPrefix();
  const redis = new Redis(redisTestUrl);
  const keys = async () => {
    const found: string[] = [];
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 500 })) found.push(...(batch as string[]));
    return found;
  };
  return {
    prefix,
    redis,
    keys,
    async cleanUp() {
      const left = await keys();
      if (left.length > 0) await redis.del(...left);
      await redis.quit();
    },
  };
}

/** A loopback port nothing listens on: a Redis (or anything) that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP forwarder on `port` to the test Redis: Redis appearing at an address where it was not. */
export async function forwardToRedis(port: number): Promise<{ close(): Promise<void> }> {
  const target = new URL(redisTestUrl);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => (sockets.add(socket), socket.once('close', () => sockets.delete(socket)));
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    track(client);
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
