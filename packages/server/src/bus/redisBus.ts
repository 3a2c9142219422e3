import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Bus } from './bus.js';

type BusLog = Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>;

export interface RedisBusOptions {
  /** The process's Redis connection (src/redis.ts): the bus publishes on it and subscribes on a duplicate. */
  redis: Redis;
  /** Put before every topic to name its Redis channel, so that deployments (and tests) can share one Redis. */
  channelPrefix: string;
  log: BusLog;
}

/** A subscription; an object of its own, so that one listener subscribed twice is counted twice. */
interface Subscriber {
  listener: (payload: string) => void;
}

/**
 * The bus of several server processes: Redis pub/sub. It publishes on the process's Redis connection
 * and subscribes on one connection of its own (a connection that subscribes may run nothing else). Each
 * topic is subscribed in Redis while at least one listener of this process wants it, and unsubscribed
 * when the last one stops.
 *
 * Neither connection queues commands while Redis is unreachable: a publish then fails at once (logged,
 * and lost: the bus is at most once) instead of piling up in memory. The client reconnects in the
 * background, and the subscribing connection, once back, subscribes again to every topic listened to.
 */
export class RedisBus implements Bus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channelPrefix: string;
  private readonly log: BusLog;
  private readonly topics = new Map<string, Set<Subscriber>>();
  /** The last (UN)SUBSCRIBE sent: commands on one connection are answered in order, so it answers for all before it. */
  private lastChange: Promise<unknown> = Promise.resolve();
  private publishFailing = false;
  private closed = false;

  /** Connects the subscribing connection; a Redis that is down does not stop the server from starting (see above). */
  static async open(options: RedisBusOptions): Promise<RedisBus> {
    const bus = new RedisBus(options);
    await bus.subscriber.connect().catch(() => undefined);
    return bus;
  }

  private constructor(options: RedisBusOptions) {
    this.channelPrefix = options.channelPrefix;
    this.log = options.log;
    this.publisher = options.redis;
    this.subscriber = subscribingConnection(options);
    this.subscriber.on('message', (channel: string, payload: string) => this.hear(channel, payload));
    // Every (re)connection starts without subscriptions: make those this process listens to now.
    this.subscriber.on('ready', () => this.send('subscribe', [...this.topics.keys()]));
  }

  publish(topic: string, payload: string): void {
    if (this.closed) return;
    this.publisher.publish(this.channelPrefix + topic, payload).then(
      () => (this.publishFailing = false),
      (error: unknown) => {
        // Once per outage, not once per message.
        if (this.publishFailing) return;
        this.publishFailing = true;
        this.log.warn({ err: error, topic }, 'the bus could not publish to Redis; other processes miss what is published until it is back');
      },
    );
  }

  subscribe(topic: string, listener: (payload: string) => void): () => void {
    if (this.closed) return () => undefined;
    let subscribers = this.topics.get(topic);
    if (!subscribers) {
      this.topics.set(topic, (subscribers = new Set()));
      this.send('subscribe', [topic]);
    }
    const subscriber: Subscriber = { listener };
    subscribers.add(subscriber);
    return () => {
      if (!subscribers.delete(subscriber) || subscribers.size > 0 || this.topics.get(topic) !== subscribers) return;
      this.topics.delete(topic);
      this.send('unsubscribe', [topic]);
    };
  }

  async whenSubscribed(): Promise<void> {
    await this.lastChange;
  }

  /**
   * Stops hearing; the process's connection, which published, is closed by whoever opened it. A live
   * subscribing connection is quit, and this resolves once it has ended: Redis has dropped its
   * subscriptions by then. One that is down has none, and is only stopped from reconnecting.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.topics.clear();
    if (this.subscriber.status !== 'ready') return void this.subscriber.disconnect();
    const ended = new Promise<void>((resolve) => this.subscriber.once('end', () => resolve()));
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
    await ended;
  }

  private hear(channel: string, payload: string): void {
    if (!channel.startsWith(this.channelPrefix)) return;
    const subscribers = this.topics.get(channel.slice(this.channelPrefix.length));
    if (!subscribers) return;
    for (const { listener } of subscribers) {
      try {
        listener(payload);
      } catch (error) {
        // One listener's failure must not keep the others from hearing.
        this.log.error({ err: error, channel }, 'a bus listener failed');
      }
    }
  }

  /**
   * Only on a live connection: one that is down has no subscriptions to change, and subscribes to what
   * is listened to then once it is back ('ready').
   */
  private send(command: 'subscribe' | 'unsubscribe', topics: string[]): void {
    if (topics.length === 0 || this.closed || this.subscriber.status !== 'ready') return;
    this.lastChange = this.subscriber[command](...topics.map((topic) => this.channelPrefix + topic)).catch((error: unknown) => {
      // The connection broke meanwhile; 'ready' makes the subscriptions again when it is back.
      this.log.warn({ err: error, topics }, `the bus could not ${command} in Redis`);
    });
  }
}

function subscribingConnection({ redis, channelPrefix, log }: RedisBusOptions): Redis {
  const subscriber = redis.duplicate({
    lazyConnect: true,
    // What CLIENT LIST shows; a connection name may hold no spaces or control characters.
    connectionName: `${channelPrefix}subscriber`.replace(/[^!-~]/g, '_'),
    // Subscriptions are made again by RedisBus itself, from what its listeners want when the connection is back.
    autoResubscribe: false,
    // No time limit on SUBSCRIBE: one answered late (three processes starting at once) had timed out
    // here while Redis subscribed all the same, and was logged as a failure. A connection that breaks
    // fails the command anyway, and subscribes again once back.
    commandTimeout: undefined,
  });
  // Logged when the state changes, not at every reconnection attempt. Redis closing the connection
  // (a restart, CLIENT KILL) is no error, but the client reconnects all the same.
  let reachable = true;
  const down = (error?: Error) => {
    if (!reachable) return;
    reachable = false;
    log.warn({ err: error }, "the bus's subscribing connection to Redis is down; reconnecting in the background");
  };
  subscriber.on('error', down);
  subscriber.on('reconnecting', () => down());
  subscriber.on('ready', () => {
    if (reachable) return;
    reachable = true;
    log.info("the bus's subscribing connection to Redis is back");
  });
  return subscriber;
}
