import { TokenBuckets } from './api/tokenBuckets.js';
import { buildHttpServer, type HttpServer } from './api/httpServer.js';
import { registerRoutes } from './api/routes.js';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import { LocalBus } from './bus/localBus.js';
import { RedisBus } from './bus/redisBus.js';
import { carryOutEffects } from './core/effects/carryOut.js';
import { BackgroundWork } from './core/triggers/backgroundWork.js';
import { eventsRuntimeFor } from './events/delivery/runtime.js';
import type { DeliverySettings } from './events/delivery/settings.js';
import { startDeliveryWorker } from './events/delivery/worker.js';
import { createLog } from './log.js';
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
}

/** The context the API's handlers receive, over an open store, with the bus of a single process. */
export function createContext(config: Config, store: Store, options: Pick<StartOptions, 'now' | 'events'> = {}): ServerContext {
  const { now = Date.now } = options;
  const log = createLog(config);
  const events = eventsRuntimeFor(config, log, options.events);
  const ctx: ServerContext = {
    config, store, db: store.db, now, log, events,
    rateLimits: new TokenBuckets(now),
    background: new BackgroundWork(log),
    afterCommit: (effects) => carryOutEffects(ctx, effects),
    bus: new LocalBus(),
  };
  return ctx;
}

/** Migrates the store, then serves the API on config.host:config.port (0 picks a free port). */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const store = options.store ?? openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (options.migrate !== false) await store.migrate();
  const ctx = createContext(config, store, options);
  // With Redis, the processes behind one load balancer hear each other through it.
  if (config.redisUrl) ctx.bus = await RedisBus.open({ url: config.redisUrl, channelPrefix: `${config.redisKeyPrefix}bus:`, log: ctx.log });
  let http: HttpServer;
  let address: string;
  try {
    http = await buildHttpServer(ctx, { plugins: [(app) => registerRoutes(app, ctx)] });
    address = await http.app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await ctx.bus.close();
    throw error;
  }
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
        await ctx.bus.close();
        await store.close();
      })()),
  };
}
