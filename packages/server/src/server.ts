import { TokenBuckets } from './api/tokenBuckets.js';
import { buildHttpServer, type HttpServer } from './api/httpServer.js';
import { registerRoutes } from './api/routes.js';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import { BackgroundWork } from './core/triggers/backgroundWork.js';
import { eventsRuntimeFor } from './events/delivery/runtime.js';
import type { DeliverySettings } from './events/delivery/settings.js';
import { startDeliveryWorker } from './events/delivery/worker.js';
import { createLog, type LogDestination } from './log.js';
import { openStore, type Store } from './store/store.js';

export interface RunningServer {
  url: string;
  ctx: ServerContext;
  http: HttpServer;
  /** Graceful: drain HTTP, then close the store. */
  close(): Promise<void>;
}

export interface StartOptions {
  store?: Store;
  now?: () => number;
  /** Skip migrating (the store is known to be current, or cannot be reached yet). */
  migrate?: boolean;
  /** Event delivery settings (tests shorten time-outs and the poll). */
  events?: Partial<DeliverySettings>;
  /** Where the JSON log lines go; stdout by default (tests read them). */
  logTo?: LogDestination;
}

/** The context the API's handlers receive, over an open store. */
export function createContext(
  config: Config,
  store: Store,
  now: () => number = Date.now,
  eventSettings: Partial<DeliverySettings> = {},
  logTo?: LogDestination,
): ServerContext {
  const log = createLog(config, logTo);
  const events = eventsRuntimeFor(config, log, eventSettings);
  return { config, store, db: store.db, now, log, rateLimits: new TokenBuckets(now), events, background: new BackgroundWork(log) };
}

/** Migrates the store, then serves the API on config.host:config.port (0 picks a free port). */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const store = options.store ?? openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (options.migrate !== false) await store.migrate();
  const ctx = createContext(config, store, options.now, options.events, options.logTo);
  const http = await buildHttpServer(ctx, { plugins: [(app) => registerRoutes(app, ctx)] });
  const address = await http.app.listen({ port: config.port, host: config.host });
  const eventWorker = startDeliveryWorker(ctx);
  let closed: Promise<void> | undefined;
  return {
    url: address,
    ctx,
    http,
    close: () =>
      (closed ??= (async () => {
        await http.drain();
        await ctx.background.settled();
        await eventWorker.stop();
        await ctx.events.close();
        await store.close();
      })()),
  };
}
