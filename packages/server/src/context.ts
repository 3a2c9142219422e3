import type { ServerMetrics } from './api/ops/metrics.js';
import type { RateLimiter } from './api/rateLimiter.js';
import type { CoreContext } from './core/context.js';
import type { Redis } from './redis.js';

/**
 * What every handler receives: no module reaches for globals. Core and events take the smaller
 * CoreContext / EventsContext, so they never depend on what only the API holds.
 */
export interface ServerContext extends CoreContext {
  /** In memory, or shared through Redis when config.redisUrl is set (api/rateLimiter.ts). */
  rateLimits: RateLimiter;
  /** What GET /metrics reports; the stream gateway tells it how many WebSockets are open. */
  metrics: ServerMetrics;
  /** This process's one Redis connection when config.redisUrl is set (src/redis.ts); a subscriber takes `redis.duplicate()`. */
  redis?: Redis;
}

/** The context of one request's handler: the server's, naming the request (EventsContext.requestId). */
export const forRequest = (ctx: ServerContext, requestId: string): ServerContext => ({ ...ctx, requestId });
