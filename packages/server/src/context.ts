import type { FastifyBaseLogger } from 'fastify';
import type { TokenBuckets } from './api/rateLimit.js';
import type { Config } from './config.js';
import type { BackgroundWork } from './core/triggers/backgroundWork.js';
import type { EventsRuntime } from './events/runtime.js';
import type { Db, Store } from './store/store.js';

/** What every handler, command and worker receives: no module reaches for globals. */
export interface ServerContext {
  config: Config;
  store: Store;
  db: Db;
  now: () => number;
  log: FastifyBaseLogger;
  rateLimits: TokenBuckets;
  /** Event delivery: `events.wake()` after committing a transaction that enqueued events. */
  events: EventsRuntime;
  /** Work started after a request was answered (URL previews); shutdown waits for it. */
  background: BackgroundWork;
}
