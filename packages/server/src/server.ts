import type { FastifyBaseLogger } from 'fastify';
import { createServerMetrics } from './api/ops/metrics.js';
import { startRetentionJob, type RetentionJob } from './api/ops/retention.js';
import { startSearchIndexer } from './api/ops/searchIndexer.js';
import { memoryRateLimiter, redisRateLimiter } from './api/rateLimiter.js';
import { TokenBuckets } from './api/tokenBuckets.js';
import { buildHttpServer, type HttpServer } from './api/httpServer.js';
import { registerRoutes } from './api/routes.js';
import { ListenGateway } from './api/listen/gateway.js';
import { listenEndpoint } from './api/listen/upgrade.js';
import { StreamGateway } from './api/stream/gateway.js';
import { StreamBalancer } from './api/stream/rebalance.js';
import { PRESENCE_LEASE_MS } from './api/stream/presence.js';
import { STREAM_PATH, streamEndpoint } from './api/stream/upgrade.js';
import { served, upgradeListener } from './api/upgrade.js';
import { ConfigError, type Config } from './config.js';
import type { ServerContext } from './context.js';
import type { Bus } from './bus/bus.js';
import { LocalBus } from './bus/localBus.js';
import { CommittedEntries } from './core/stream/committedEntries.js';
import { MemoryPresenceStore, RedisPresenceStore } from './bus/presenceStore.js';
import { vapidKeys } from './core/push/vapidKeys.js';
import { RedisBus } from './bus/redisBus.js';
import { carryOutEffects } from './core/effects/carryOut.js';
import { sendDueMail, stopMailRetries } from './core/mail/sender.js';
import { DeliveryNotices } from './core/stream/deliveryNotices.js';
import { BackgroundWork } from './core/triggers/backgroundWork.js';
import { startScheduledSender, type ScheduledSender } from './core/scheduled/sender.js';
import { eventsRuntimeFor } from './events/delivery/runtime.js';
import type { DeliverySettings } from './events/delivery/settings.js';
import { startDeliveryWorker } from './events/delivery/worker.js';
import { createLog } from './log.js';
import { closeRedis, openRedis, type Redis } from './redis.js';
import { openStore, type Store } from './store/store.js';

export interface RunningServer {
  url: string;
  ctx: ServerContext;
  http: HttpServer;
  /** The real-time stream's WebSockets in this process (`openConnections()` for the metrics). */
  gateway: StreamGateway;
  /** `aviary listen` connections in this process. */
  listen: ListenGateway;
  /** The retention job's pass, run on demand (tests, an operator's script); it also runs hourly. */
  retention: RetentionJob;
  /** The sender of scheduled messages: its pass, run on demand (tests), also runs every second. */
  scheduled: ScheduledSender;
  /** Graceful: tell the streams to reconnect elsewhere, drain HTTP, then close the store and the Redis connection. */
  close(): Promise<void>;
}

export interface StartOptions {
  store?: Store;
  now?: () => number;
  /** Skip migrating (the store is known to be current, or cannot be reached yet). */
  migrate?: boolean;
  /** Event delivery settings (tests shorten time-outs and the poll). */
  events?: Partial<DeliverySettings>;
  /** Where the server logs; by default JSON lines on stdout at config.logLevel (tests read what it warns). */
  log?: FastifyBaseLogger;
}

/** What a context shares with the rest of the process: the log, the Redis connection when there is one, the bus. */
export interface ContextResources {
  log?: FastifyBaseLogger;
  redis?: Redis;
  /** In memory (one process) unless given. */
  bus?: Bus;
}

/** The context the API's handlers receive, over an open store. */
export function createContext(
  config: Config,
  store: Store,
  now: () => number = Date.now,
  eventSettings: Partial<DeliverySettings> = {},
  resources: ContextResources = {},
): ServerContext {
  const log = resources.log ?? createLog(config);
  const { redis } = resources;
  const events = eventsRuntimeFor(config, log, eventSettings);
  const buckets = new TokenBuckets(now);
  const ctx: ServerContext = {
    config, store, db: store.db, now, log, events,
    rateLimits: redis ? redisRateLimiter({ redis, keyPrefix: config.redisKeyPrefix, now, log, fallback: buckets }) : memoryRateLimiter(buckets),
    metrics: createServerMetrics(),
    redis,
    background: new BackgroundWork(log),
    afterCommit: (effects, requestId) => carryOutEffects(ctx, effects, requestId),
    bus: resources.bus ?? new LocalBus(),
    committedEntries: new CommittedEntries(),
  };
  // Developers see their apps' delivery logs change live, on their stream.
  events.watchDelivery(new DeliveryNotices(ctx));
  return ctx;
}

/** Migrates the store, then serves the API on config.host:config.port (0 picks a free port). */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const store = options.store ?? openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, secretKeys: config.secretKeys });
  if (options.migrate !== false) await store.migrate();
  const log = options.log ?? createLog(config);
  // One connection per process, for whatever needs Redis (ctx.redis).
  const redis = config.redisUrl ? await openRedis(config.redisUrl, log) : undefined;
  if (redis && !config.files.s3) {
    log.warn(
      { filesDir: `${config.dataDir}/files` },
      'uploaded files are kept in this process’s data directory: with several processes, the others cannot serve them; give every process the same S3 bucket (AVIARY_S3_*, docs/deploy.md)',
    );
  }
  // With Redis, the processes behind one load balancer hear each other through it.
  const bus = redis ? await RedisBus.open({ redis, channelPrefix: `${config.redisKeyPrefix}bus:`, log }) : new LocalBus();
  const ctx = createContext(config, store, options.now, options.events, { log, redis, bus });
  // Mail a stopped process queued but did not send goes out now.
  if (config.smtpUrl !== undefined) ctx.background.run('sending queued mail', () => sendDueMail(ctx));
  // Who is online: in this process's memory, or shared by the processes in Redis.
  const presenceStore = redis ? new RedisPresenceStore(redis, config.redisKeyPrefix, 2 * PRESENCE_LEASE_MS) : new MemoryPresenceStore();
  const gateway = new StreamGateway(ctx, presenceStore);
  // Web Push: its VAPID keys made on the first start (in the background: a store that is down at start
  // answers 503 to requests, and the first push tries again), and who is online (they get no push).
  ctx.presence = presenceStore;
  ctx.background.run('making the Web Push keys', async () => void (await vapidKeys(store, ctx.now)));
  // `aviary listen`: an app's events over a WebSocket instead of its listener URL.
  const listen = new ListenGateway(ctx);
  ctx.metrics.countOpenWebSockets(() => gateway.openConnections() + ctx.events.tunnels.count());
  let http: HttpServer;
  let address: string;
  try {
    http = await buildHttpServer(ctx, { plugins: [(app) => registerRoutes(app, ctx)] });
    http.app.server.on('upgrade', upgradeListener(ctx, [served(ctx, streamEndpoint(ctx, gateway)), served(ctx, listenEndpoint(ctx, listen))], `the stream is at ${STREAM_PATH}`));
    address = await http.app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw hostRefusal(error, config.host) ?? error;
    });
    ctx.listeningUrl = address;
  } catch (error) {
    await gateway.close();
    // The work begun above (the Web Push keys, queued mail) ends before the caller closes the store under it.
    await ctx.background.settled();
    await bus.close();
    if (redis) await closeRedis(redis);
    throw error;
  }
  const eventWorker = startDeliveryWorker(ctx);
  // With several processes, one that holds more than its share of the streams sheds some.
  const balancer = redis
    ? new StreamBalancer({ redis, keyPrefix: config.redisKeyPrefix, intervalMs: config.stream.rebalanceMs, now: ctx.now, log }, gateway)
    : undefined;
  balancer?.start();
  const retention = startRetentionJob(ctx);
  const scheduled = startScheduledSender(ctx);
  const searchIndexer = startSearchIndexer(ctx);
  let closed: Promise<void> | undefined;
  return {
    url: address,
    ctx,
    http,
    gateway,
    listen,
    retention,
    scheduled,
    close: () =>
      (closed ??= (async () => {
        const began = Date.now();
        // No event is claimed once the shutdown has begun; the attempts in flight finish while the rest drains.
        eventWorker.stopClaiming();
        listen.close();
        await retention.stop();
        await scheduled.stop();
        await balancer?.stop();
        await gateway.close();
        await http.drain();
        await ctx.background.settled();
        await searchIndexer.stop();
        // After the last send: a failure while draining plans a retry this process will not make.
        stopMailRetries(config);
        await eventWorker.stop(Math.max(0, config.shutdownGraceMs - (Date.now() - began)));
        await ctx.events.close();
        await ctx.bus.close();
        await store.close();
        if (redis) await closeRedis(redis);
      })()),
  };
}

/** A host to listen on that names no address of this machine: a setting to change, not an unreachable database. */
function hostRefusal(error: unknown, host: string): ConfigError | undefined {
  const code = (error as { code?: unknown })?.code;
  if (code !== 'ENOTFOUND' && code !== 'EAI_AGAIN' && code !== 'EADDRNOTAVAIL') return undefined;
  return new ConfigError('HOST', `cannot listen on "${host.slice(0, 200)}" (${code}): give an address of this machine, such as 127.0.0.1, 0.0.0.0 or ::.`);
}
