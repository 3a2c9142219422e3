import type { FastifyBaseLogger } from 'fastify';
import type { Db, Store } from '../store/store.js';
import type { EventsRuntime } from './delivery/runtime.js';

/** What event code takes: the store, the clock, the log and the event engine (a ServerContext is one). */
export interface EventsContext {
  store: Store;
  db: Db;
  now: () => number;
  log: FastifyBaseLogger;
  /** Event delivery: `events.wake()` after committing a transaction that enqueued events. */
  events: EventsRuntime;
  /**
   * The HTTP request this work is done for (its X-Request-Id), when it is done for one: the log lines of
   * what it sets off synchronously name it, so a developer can find the request behind them.
   */
  requestId?: string;
}
