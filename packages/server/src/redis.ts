import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

export interface RedisOptions {
  /** How long a command may wait for its answer before it fails (a Redis that hangs, not one that is down). */
  commandTimeoutMs?: number;
  /** How long one connection attempt may take. */
  connectTimeoutMs?: number;
}

/** Reconnection attempts back off to this, so that a Redis that comes back is found within seconds. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * A process's connection to Redis (config.redisUrl), opened by the wiring (server.ts) and handed to what
 * needs it; close it with `closeRedis`. Commands never wait for a connection: while Redis is down they
 * fail at once (no offline queue) and after `commandTimeoutMs` when it does not answer, so a request
 * never hangs on Redis and each caller decides what an outage means for it. Meanwhile the client
 * reconnects in the background. Connection errors are logged when the state changes, not at every retry.
 * A subscriber (which may run no other command) takes a connection of its own: `redis.duplicate()`.
 */
export async function openRedis(url: string, log: Pick<FastifyBaseLogger, 'warn' | 'info'>, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  let reachable = true;
  redis.on('error', (error: Error) => {
    if (!reachable) return;
    reachable = false;
    log.warn({ err: error }, 'Redis is unreachable; reconnecting in the background');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info('Redis is reachable again');
  });
  // Started before the server listens, so that the first requests find it ready. A Redis that is down
  // must not keep the server from starting: its callers handle the outage, and the client keeps trying.
  await redis.connect().catch(() => undefined);
  return redis;
}

/** Closes the connection: politely (QUIT) when it is up, at once when it is not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}
