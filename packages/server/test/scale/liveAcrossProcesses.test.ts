import type { StreamFrame } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_LEASE_MS } from '../../src/api/stream/presence.js';
import { loadConfig } from '../../src/config.js';
import { createLog } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { sessionFor } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { captureLog } from '../helpers/logs.js';
import { redisAvailable, redisScratch, redisTestUrl, type RedisScratch } from '../helpers/redis.js';
import type { TestServer } from '../helpers/server.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { closeStreams, openStream } from '../stream/harness.js';

const presence = (status: 'online' | 'away', userId: string) => (frame: StreamFrame) =>
  frame.type === 'presence' && frame.status === status && frame.userIds.includes(userId);

// Several processes share one store only on PostgreSQL, and hear each other only through Redis.
describe.runIf(dialects.includes('postgres') && redisAvailable)('typing and presence across two server processes on one Redis', () => {
  let clock = Date.now();
  let testStore: TestStore;
  let scratch: RedisScratch;
  const servers: RunningServer[] = [];
  /** What the first process logs: a stream's closing on its side is a line (debug). */
  const oneLog = captureLog();
  /** What the stream harness needs of a server: its address and the store its sessions are in. */
  const at = (server: RunningServer) => ({ url: server.url, testStore, server }) as unknown as TestServer;

  beforeAll(async () => {
    testStore = await createTestStore('postgres');
    scratch = redisScratch();
    const config = loadConfig({ port: 0, dataDir: testStore.dataDir, logLevel: 'silent', redisUrl: redisTestUrl, redisKeyPrefix: scratch.prefix }, {});
    servers.push(await startServer(config, { store: testStore.store, migrate: false, now: () => clock, log: createLog({ logLevel: 'debug' }, oneLog.destination) }));
    servers.push(await startServer(config, { store: testStore.reopen(), migrate: false, now: () => clock }));
  });
  afterAll(async () => {
    await closeStreams();
    for (const server of servers.splice(0)) await server.close();
    await testStore?.destroy();
    await scratch?.cleanUp();
  });

  it('brings typing and presence made on one process to a stream on the other, each departure told once', async () => {
    const [one, two] = servers;
    const f = factories(testStore.store.db);
    const team = await f.team();
    const ann = await sessionFor(at(one), await f.person(team.id));
    const ben = await sessionFor(at(two), await f.person(team.id));

    const benStream = await openStream(at(two), ben);
    // Arrivals are held in batches (a second apart): this one now.
    await two.gateway.presence.holdArrivals();
    const annStream = await openStream(at(one), ann);
    await benStream.waitFor(presence('online', ann.user.id));
    // Ben came online on the other process before Ann's stream opened: her first presence frame lists him.
    expect(await annStream.waitFor(presence('online', ben.user.id))).toMatchObject({ type: 'presence', status: 'online' });

    expect((await ann.call('chat.signalTyping', { chat: ben.user.id })).status).toBe(200);
    expect(await benStream.waitFor((frame) => frame.type === 'typing')).toEqual({ type: 'typing', chat: ann.user.id, userId: ann.user.id });

    await annStream.close();
    // The client's side is closed; the server's follows: until then it still holds Ann.
    await oneLog.waitFor((line) => line.msg === 'a stream closed' && line.userId === ann.user.id && line.open === 0);
    expect(one.gateway.connectionsOf(ann.user.id)).toBe(0);
    clock += PRESENCE_LEASE_MS + 1;
    // Both processes look for lapsed holds; only one lets go of Ann's, so Ben hears it once.
    await Promise.all(servers.map((server) => server.gateway.presence.renew()));
    await benStream.waitFor(presence('away', ann.user.id));
    await Promise.all(servers.map((server) => server.gateway.presence.renew()));
    const marker = await ann.call('chat.signalTyping', { chat: ben.user.id });
    expect(marker.status).toBe(200);
    await benStream.waitFor((frame) => frame.type === 'typing' && benStream.frames.filter((f) => f.type === 'typing').length === 2);
    expect(benStream.frames.filter(presence('away', ann.user.id))).toHaveLength(1);
    expect(benStream.frames.some(presence('away', ben.user.id))).toBe(false);
  });
});
