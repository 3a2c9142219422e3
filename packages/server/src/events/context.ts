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
}
