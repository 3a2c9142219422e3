import { once } from 'node:events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalBus } from '../../src/bus/localBus.js';
import { RedisBus, type RedisBusOptions } from '../../src/bus/redisBus.js';
import { closeRedis, openRedis, type Redis } from '../../src/redis.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closedPort, forwardToRedis, redisAdmin, redisAvailable, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';

/** What a bus logged, by level, and a way to wait until it has said something. */
function capturingLog() {
  const lines: Array<{ level: 'warn' | 'info' | 'error'; message: string }> = [];
  const waiters: Array<() => void> = [];
  const at = (level: 'warn' | 'info' | 'error') => (fields: object | string, message?: string) => {
    lines.push({ level, message: message ?? String(fields) });
    for (const wake of waiters.splice(0)) wake();
  };
  /** Resolves once a line holding `text` has been logged. */
  const said = async (text: string) => {
    while (!lines.some((line) => line.message.includes(text))) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { lines, said, log: { warn: at('warn'), info: at('info'), error: at('error') } as unknown as RedisBusOptions['log'] };
}

/** What a listener heard, and a way to wait (bounded) until it has heard `count` payloads. */
function heard() {
  const payloads: string[] = [];
  let wake = () => {};
  return {
    payloads,
    add: (payload: string) => {
      payloads.push(payload);
      wake();
    },
    async waitFor(count: number, timeoutMs = 5_000): Promise<string[]> {
      const deadline = Date.now() + timeoutMs;
      while (payloads.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`heard ${payloads.length} of ${count} payloads in ${timeoutMs} ms: ${payloads.slice(-5).join(', ')}`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
      return payloads;
    },
  };
}

describe.runIf(redisAvailable)('the Redis bus', () => {
  const admin = redisAdmin();
  const opened: Array<{ bus: RedisBus; redis: Redis }> = [];
  afterEach(async () => {
    for (const running of opened.splice(0)) await closeProcess(running);
  });
  afterAll(() => admin.quit());

  /** A bus as one server process opens it: on the process's Redis connection, which publishes. */
  async function openBus(channelPrefix: string, log = capturingLog().log, url = redisTestUrl): Promise<RedisBus> {
    const redis = await openRedis(url, log);
    const bus = await RedisBus.open({ redis, channelPrefix, log });
    opened.push({ bus, redis });
    return bus;
  }

  /** As a server process closes: the bus, then the connection it published on. */
  async function closeProcess({ bus, redis }: { bus: RedisBus; redis: Redis }): Promise<void> {
    await bus.close();
    await closeRedis(redis);
  }

  const publisherOf = (bus: RedisBus) => opened.find((running) => running.bus === bus)!.redis;

  /** How many connections are subscribed to the topic's channel, as Redis counts them. */
  async function subscribers(prefix: string, topic: string): Promise<number> {
    const [, count] = (await admin.pubsub('NUMSUB', prefix + topic)) as [string, number];
    return Number(count);
  }

  it('lets two processes hear each other, each publisher in its own order, themselves included', async () => {
    const prefix = uniqueRedisPrefix();
    const [first, second] = [await openBus(prefix), await openBus(prefix)];
    const [heardByFirst, heardBySecond] = [heard(), heard()];
    first.subscribe('team', heardByFirst.add);
    second.subscribe('team', heardBySecond.add);
    await Promise.all([first.whenSubscribed(), second.whenSubscribed()]);

    const sent = (from: string) => Array.from({ length: 200 }, (_, i) => `${from}${i}`);
    for (const payload of sent('a')) first.publish('team', payload);
    for (const payload of sent('b')) second.publish('team', payload);

    for (const listener of [heardByFirst, heardBySecond]) {
      const payloads = await listener.waitFor(400);
      expect(payloads).toHaveLength(400);
      expect(payloads.filter((payload) => payload.startsWith('a'))).toEqual(sent('a'));
      expect(payloads.filter((payload) => payload.startsWith('b'))).toEqual(sent('b'));
    }
  });

  it('hears only its own topics under its own prefix', async () => {
    const prefix = uniqueRedisPrefix();
    const bus = await openBus(prefix);
    const listener = heard();
    bus.subscribe('team', listener.add);
    await bus.whenSubscribed();
    // From one connection, so Redis handles them in this order: whatever the bus would hear of the
    // first three arrives before the last.
    await admin.publish(`${uniqueRedisPrefix()}team`, 'another deployment');
    await admin.publish(`${prefix}other`, 'another topic');
    await admin.publish('team', 'no prefix');
    await admin.publish(`${prefix}team`, 'ours');
    expect(await listener.waitFor(1)).toEqual(['ours']);
  });

  it('subscribes a topic in Redis while any subscription to it lasts, and each stop ends only its own', async () => {
    const prefix = uniqueRedisPrefix();
    const [bus, publisher] = [await openBus(prefix), await openBus(prefix)];
    const [first, second] = [heard(), heard()];
    const stopFirst = bus.subscribe('team', first.add);
    // The same listener twice is two subscriptions.
    const stopSecond = bus.subscribe('team', second.add);
    const stopSecondAgain = bus.subscribe('team', second.add);
    await bus.whenSubscribed();
    expect(await subscribers(prefix, 'team')).toBe(1);

    publisher.publish('team', 'to all three');
    await second.waitFor(2);
    expect(first.payloads).toEqual(['to all three']);

    stopFirst();
    stopFirst();
    stopSecond();
    await bus.whenSubscribed();
    expect(await subscribers(prefix, 'team')).toBe(1);
    publisher.publish('team', 'to one');
    await second.waitFor(3);
    // The bus calls every listener of a payload at once, so the stopped one would have heard by now.
    expect(first.payloads).toEqual(['to all three']);
    expect(second.payloads).toEqual(['to all three', 'to all three', 'to one']);

    stopSecondAgain();
    await bus.whenSubscribed();
    expect(await subscribers(prefix, 'team')).toBe(0);

    const again = heard();
    bus.subscribe('team', again.add);
    await bus.whenSubscribed();
    expect(await subscribers(prefix, 'team')).toBe(1);
    publisher.publish('team', 'back');
    expect(await again.waitFor(1)).toEqual(['back']);
  });

  it('keeps calling the other listeners when one throws, and logs the failure', async () => {
    const prefix = uniqueRedisPrefix();
    const { lines, log } = capturingLog();
    const bus = await openBus(prefix, log);
    const listener = heard();
    bus.subscribe('team', () => {
      throw new Error('a broken listener');
    });
    bus.subscribe('team', listener.add);
    await bus.whenSubscribed();
    await admin.publish(`${prefix}team`, 'still heard');
    expect(await listener.waitFor(1)).toEqual(['still heard']);
    expect(lines).toEqual([{ level: 'error', message: 'a bus listener failed' }]);
  });

  it('sends what was published before the process closes, then leaves Redis and ignores further use', async () => {
    const prefix = uniqueRedisPrefix();
    const [listening, closing] = [await openBus(prefix), await openBus(prefix)];
    const listener = heard();
    listening.subscribe('team', listener.add);
    closing.subscribe('own', () => undefined);
    await Promise.all([listening.whenSubscribed(), closing.whenSubscribed()]);
    expect(await subscribers(prefix, 'own')).toBe(1);

    const sent = Array.from({ length: 100 }, (_, i) => `m${i}`);
    for (const payload of sent) closing.publish('team', payload);
    await closeProcess(opened.splice(1, 1)[0]);
    expect(await listener.waitFor(100)).toEqual(sent);
    expect(await subscribers(prefix, 'own')).toBe(0);

    expect(() => closing.publish('team', 'after close')).not.toThrow();
    const stop = closing.subscribe('own', () => undefined);
    stop();
    await closing.whenSubscribed();
    await closing.close();
    expect(await subscribers(prefix, 'own')).toBe(0);
  });

  it('subscribes again when Redis drops its subscribing connection', async () => {
    const prefix = uniqueRedisPrefix();
    const { lines, said, log } = capturingLog();
    const bus = await openBus(prefix, log);
    const listener = heard();
    bus.subscribe('team', listener.add);
    await bus.whenSubscribed();
    const idsNamed = async () =>
      String(await admin.client('LIST'))
        .split('\n')
        .filter((line) => line.includes(` name=${prefix}subscriber `))
        .map((line) => /^id=(\d+)/.exec(line)![1]);
    const [before] = await idsNamed();
    expect(before).toBeDefined();
    await admin.client('KILL', 'ID', before);

    // The new connection has the old one's name; once it is there, the bus subscribed again (on 'ready').
    await said('subscribing connection to Redis is back');
    await bus.whenSubscribed();
    const ids = await idsNamed();
    expect(ids).toHaveLength(1);
    expect(ids[0]).not.toBe(before);
    expect(await subscribers(prefix, 'team')).toBe(1);
    await admin.publish(`${prefix}team`, 'after the drop');
    expect(await listener.waitFor(1)).toEqual(['after the drop']);
    expect(lines).toEqual([
      { level: 'warn', message: "the bus's subscribing connection to Redis is down; reconnecting in the background" },
      { level: 'info', message: "the bus's subscribing connection to Redis is back" },
    ]);
  });

  it('publishes again once Redis drops the process connection and it is back', async () => {
    const prefix = uniqueRedisPrefix();
    const bus = await openBus(prefix);
    const listener = heard();
    bus.subscribe('team', listener.add);
    await bus.whenSubscribed();
    const publisher = publisherOf(bus);
    // What is published while the connection is away is lost (at most once): publish once it is back.
    const back = once(publisher, 'ready');
    await admin.client('KILL', 'ID', String(await publisher.client('ID')));
    await back;
    bus.publish('team', 'after the drop');
    expect(await listener.waitFor(1)).toEqual(['after the drop']);
  });

  it('starts without Redis, loses what is published meanwhile without throwing, and is at work once Redis is there', async () => {
    const { lines, said: hasSaid, log } = capturingLog();
    const port = await closedPort();
    const bus = await openBus(uniqueRedisPrefix(), log, `redis://127.0.0.1:${port}`);
    const listener = heard();
    bus.subscribe('team', listener.add);
    await bus.whenSubscribed();
    for (let i = 0; i < 10; i++) expect(() => bus.publish('team', `lost ${i}`)).not.toThrow();
    const said = (text: string) => lines.filter((line) => line.message.includes(text));
    await hasSaid('could not publish');
    expect(said('could not publish')).toHaveLength(1);
    expect(said('subscribing connection to Redis is down')).toHaveLength(1);

    // Redis appears at that address: the bus connects, subscribes to what its listeners want, and publishes.
    const publisherReady = once(publisherOf(bus), 'ready');
    const redis = await forwardToRedis(port);
    try {
      await hasSaid('subscribing connection to Redis is back');
      expect(said('subscribing connection to Redis is back')).toHaveLength(1);
      await bus.whenSubscribed();
      await publisherReady;
      bus.publish('team', 'now heard');
      expect(await listener.waitFor(1)).toEqual(['now heard']);
    } finally {
      await closeProcess(opened.splice(0, 1)[0]);
      await redis.close();
    }
  });
});

describe.runIf(redisAvailable)('the bus a server process uses', () => {
  const servers: TestServer[] = [];
  const admin = redisAdmin();
  afterAll(async () => {
    for (const server of servers.splice(0)) await stopTestServer(server);
    await admin.quit();
  });

  it('is Redis pub/sub under the key prefix with REDIS_URL, closed with the server; in memory without', async () => {
    const redisKeyPrefix = uniqueRedisPrefix();
    const start = async (config: { redisUrl?: string; redisKeyPrefix?: string }) => servers[servers.push(await startTestServer('sqlite', config)) - 1];
    const [first, second, alone] = [await start({ redisUrl: redisTestUrl, redisKeyPrefix }), await start({ redisUrl: redisTestUrl, redisKeyPrefix }), await start({})];
    expect(first.server.ctx.bus).toBeInstanceOf(RedisBus);
    expect(alone.server.ctx.bus).toBeInstanceOf(LocalBus);

    const listener = heard();
    second.server.ctx.bus.subscribe('team', listener.add);
    await second.server.ctx.bus.whenSubscribed();
    first.server.ctx.bus.publish('team', 'from the first process');
    expect(await listener.waitFor(1)).toEqual(['from the first process']);
    expect(await admin.pubsub('NUMSUB', `${redisKeyPrefix}bus:team`)).toEqual([`${redisKeyPrefix}bus:team`, 1]);

    await stopTestServer(servers.splice(1, 1)[0]);
    expect(await admin.pubsub('NUMSUB', `${redisKeyPrefix}bus:team`)).toEqual([`${redisKeyPrefix}bus:team`, 0]);
  });
});
