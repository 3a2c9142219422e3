import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OutboxStats } from '../../events/outbox/stats.js';

/**
 * What GET /metrics reports for one server (api/ops/opsRoutes.ts serves it; docs/operations.md lists
 * every metric). Each server has a registry of its own, so that two servers in one process (tests)
 * count apart; the process's own metrics are the process's, in one registry for all (processRegistry).
 */
export interface ServerMetrics {
  /**
   * How to count the open WebSockets: the stream gateway hands over a function, read at each scrape,
   * e.g. `ctx.metrics.countOpenWebSockets(() => sockets.size)`. Until then the count is 0.
   */
  countOpenWebSockets(count: () => number): void;
  /** One answered request: its route label (requestMetrics.ts), HTTP method, status and duration. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** The outbox figures of this scrape (events/outbox/stats.ts). */
  setOutbox(stats: OutboxStats): void;
  /** Rows the retention job deleted (api/ops/retention.ts), by kind: `events`, `event_attempts`, `messages`. */
  countRetentionDeleted(kind: string, rows: number): void;
  /** The text exposition: the process's metrics, then this server's. */
  render(): Promise<string>;
  readonly contentType: string;
}

/** Apps with series of their own in aviary_outbox_events; the others are summed. */
export const MAX_APP_SERIES = 50;

/** From a millisecond to 10 s: the API answers in milliseconds, listeners may take seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  let openWebSockets: () => number = () => 0;
  const requests = new Counter({
    name: 'aviary_http_requests_total',
    help: 'Requests answered, by route (the route pattern, or the method name on /v1; "other" for anything unknown), HTTP method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'aviary_http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by route and HTTP method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'aviary_open_websockets',
    help: 'WebSockets open on this process.',
    registers: [registry],
    collect() {
      this.set(openWebSockets());
    },
  });
  const events = new Gauge({
    name: 'aviary_outbox_events',
    help: `Events in the store by app and status (pending, delivered, failed); apps past the busiest ${MAX_APP_SERIES} are summed as app_id="other".`,
    labelNames: ['app_id', 'status'] as const,
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'aviary_outbox_lag_seconds',
    help: 'How long the oldest due event (of an app whose delivery is not paused) has been waiting since it was due; 0 when none is.',
    registers: [registry],
  });

  const retentionDeleted = new Counter({
    name: 'aviary_retention_deleted_total',
    help: 'Rows the retention job deleted, by kind (events, event_attempts, messages).',
    labelNames: ['kind'],
    registers: [registry],
  });
  // The children of a label set, looked up once: the hook runs on every request.
  const children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<string> }>();
  return {
    countOpenWebSockets(count) {
      openWebSockets = count;
    },
    observeRequest(route, method, status, seconds) {
      const key = `${route} ${method} ${status}`;
      let child = children.get(key);
      if (!child) {
        child = { count: requests.labels(route, method, String(status)), duration: durations.labels(route, method) };
        children.set(key, child);
      }
      child.count.inc();
      child.duration.observe(seconds);
    },
    setOutbox(stats) {
      events.reset();
      for (const { appId, status, count } of stats.byApp) events.set({ app_id: appId, status }, count);
      lag.set(stats.lagSeconds);
    },
    countRetentionDeleted(kind, rows) {
      retentionDeleted.inc({ kind }, rows);
    },
    async render() {
      return (await processRegistry().metrics()) + (await registry.metrics());
    },
    contentType: registry.contentType,
  };
}

let processMetrics: Registry | undefined;

/**
 * The Node.js process's metrics (CPU, memory, event loop lag, GC, handles): one registry per process,
 * made on the first scrape, since they describe the process whichever server reports them.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
