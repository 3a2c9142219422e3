import { streamCloseCodes } from '@aviary/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { evenEnough, streamsToShed } from '../../src/api/stream/rebalance.js';
import { createLog } from '../../src/log.js';
import { sessionFor } from '../client/harness.js';
import { captureLog } from '../helpers/logs.js';
import { redisAvailable, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { openStream, type StreamClient } from './harness.js';

describe('streamsToShed: how many streams a process tells to reconnect', () => {
  it.each([
    { own: 6, counts: [6, 0], shed: 2, why: 'twice its share: half of the excess' },
    { own: 4, counts: [4, 0], shed: 1, why: 'two over its share' },
    { own: 3, counts: [3, 0], shed: 0, why: 'one over its share (rounded up) is even enough' },
    { own: 199, counts: [0, 1, 199], shed: 66, why: 'after a rolling restart' },
    { own: 100, counts: [100, 95, 90], shed: 0, why: 'within a tenth of its share' },
    { own: 130, counts: [130, 85, 85], shed: 15, why: 'more than a tenth over its share' },
    { own: 0, counts: [0, 6], shed: 0, why: 'under its share' },
    { own: 50, counts: [50], shed: 0, why: 'alone' },
  ])('$own of $counts → $shed ($why)', ({ own, counts, shed }) => {
    expect(streamsToShed(own, counts)).toBe(shed);
  });

  it('converges without overshooting when the shed streams come back anywhere', () => {
    // Three processes, 199 streams on the last: each round every process sheds, and the streams it shed
    // open again in turn on every process (round robin), itself included.
    let counts = [0, 1, 199];
    let next = 0;
    const shedPerRound: number[] = [];
    for (let round = 0; round < 12; round++) {
      const shed = counts.map((own) => streamsToShed(own, counts));
      shedPerRound.push(shed.reduce((sum, n) => sum + n, 0));
      counts = counts.map((own, index) => own - shed[index]);
      for (let stream = 0; stream < shedPerRound[round]; stream++) counts[next++ % 3] += 1;
    }
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(200);
    // Even enough, and still: the last rounds shed nothing; no round sheds more than a third of all.
    expect(Math.max(...counts) - 67).toBeLessThan(evenEnough(67));
    expect(shedPerRound.slice(-3)).toEqual([0, 0, 0]);
    expect(Math.max(...shedPerRound)).toBeLessThanOrEqual(67);
  });
});

describe.runIf(redisAvailable)('a process that holds more than its share of the streams', () => {
  const servers: TestServer[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    for (const server of servers.splice(0)) await stopTestServer(server);
  });

  it('tells some to reconnect (1012, with the reconnect frame), until it holds its share', async () => {
    const keyPrefix = uniqueRedisPrefix();
    const log = captureLog();
    const config = { redisUrl: redisTestUrl, redisKeyPrefix: keyPrefix, stream: { rebalanceMs: 150 } };
    const busy = await startTestServer('sqlite', config, { log: createLog({ logLevel: 'debug' }, log.destination) });
    servers.push(busy);
    const team = await busy.f.team();
    // Alone, a process keeps every stream it has.
    for (let i = 0; i < 6; i++) clients.push(await openStream(busy, await sessionFor(busy, await busy.f.person(team.id))));
    // Another process of the same deployment (the same Redis prefix) starts, with no streams.
    servers.push(await startTestServer('sqlite', config));

    // 6 and 0: two go, then one (4 and 0), then 3 and 0 is even enough. These clients do not come back.
    await log.waitFor((line) => line.msg === 'stream load' && line.counts.length === 2 && line.own === 3 && line.shed === 0);
    const closed = clients.filter((client) => client.socket.readyState !== client.socket.OPEN);
    expect(closed).toHaveLength(3);
    for (const client of closed) {
      expect(await client.closed).toEqual({ code: streamCloseCodes.reconnect, reason: 'this server holds more than its share of streams: reconnect with your cursor' });
      expect(client.frames.at(-1)).toEqual({ type: 'reconnect' });
    }
    expect(log.lines.filter((line) => line.msg === 'shedding streams to even the load').map((line) => line.shed)).toEqual([2, 1]);
    expect(busy.server.gateway.openConnections()).toBe(3);
  });
});
