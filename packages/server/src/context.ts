import type { FastifyBaseLogger } from 'fastify';
import type { TokenBuckets } from './api/rateLimit.js';
import type { Config } from './config.js';
import type { Db, Store } from './store/store.js';

/** What every handler, command and worker receives: no module reaches for globals. */
export interface ServerContext {
  config: Config;
  store: Store;
  db: Db;
  now: () => number;
  log: FastifyBaseLogger;
  rateLimits: TokenBuckets;
}
