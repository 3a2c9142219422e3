import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisAvailable, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { loopbackHosts } from '../helpers/server.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { browserKeys, decryptPush, startPushService } from '../push/pushService.js';
import { followStream, type FollowedStream } from './streams.js';

const password = 'a password for the notifications test';

/**
 * Two server processes on one PostgreSQL and one Redis: notification settings changed through one reach
 * the person's stream on the other, and Web Push sent by one skips a person whose stream is open on the
 * other (presence is shared through Redis).
 */
describe.runIf(dialects.includes('postgres') && redisAvailable)('notifications across two server processes', () => {
  const servers: RunningServer[] = [];
  const streams: FollowedStream[] = [];
  let testStore: TestStore;
  let service: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    testStore = await createTestStore('postgres');
    service = await startPushService();
    const config = loadConfig(
      { port: 0, host: '127.0.0.1', dataDir: testStore.dataDir, logLevel: 'silent', redisUrl: redisTestUrl, redisKeyPrefix: uniqueRedisPrefix(), allowedInternalHosts: loopbackHosts },
      {},
    );
    for (let i = 0; i < 2; i++) servers.push(await startServer(config, { store: testStore.reopen(), migrate: false }));
  });
  afterAll(async () => {
    for (const stream of streams.splice(0)) await stream.close();
    for (const server of servers.splice(0)) await server.close();
    await service?.close();
    await testStore?.destroy();
  });

  it('brings notifications.changed to the other process, and pushes only to whoever has no stream open on either', async () => {
    const f = factories(testStore.store.db);
    const team = await f.team();
    const [ann, ben, cat] = [await f.person(team.id, { password }), await f.person(team.id, { password }), await f.person(team.id, { password })];
    const [acting, streaming] = servers as [RunningServer, RunningServer];
    const signIn = async (email: string | null, url: string) => (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken as string;
    const caller = (token: string) => async (method: string, json: unknown) => {
      const answer = await http(acting.url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${token}` } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    const [annCall, benCall, catCall] = [caller(await signIn(ann.email, acting.url)), caller(await signIn(ben.email, acting.url)), caller(await signIn(cat.email, acting.url))];

    // Ben's stream is on the other process; his setting changes on this one.
    streams.push(await followStream(streaming.url, await signIn(ben.email, streaming.url)));
    await streaming.gateway.presence.holdArrivals();
    await benCall('notifications.setChatLevel', { chat: ann.id, level: 'all' });
    await annCall('chat.sendMessage', { to: ben.id, text: 'fence' });
    await streams[0]!.waitForText('fence', 10_000);
    expect(streams[0]!.frames.filter((frame) => frame.type === 'notifications.changed')).toEqual([
      expect.objectContaining({ settings: expect.objectContaining({ chats: [{ chat: ann.id, level: 'all' }] }) }),
    ]);

    // Both subscribed; Ann writes to each through the acting process: only Cat, with no stream, gets a push.
    const benKeys = browserKeys();
    const catKeys = browserKeys();
    await benCall('push.subscribe', { endpoint: `${service.url}/ben`, keys: benKeys.json });
    await catCall('push.subscribe', { endpoint: `${service.url}/cat`, keys: catKeys.json });
    await annCall('chat.sendMessage', { to: ben.id, text: 'Ben is online elsewhere' });
    await annCall('chat.sendMessage', { to: cat.id, text: 'Cat is away' });
    await acting.ctx.background.settled();
    expect(service.received.map((push) => push.path)).toEqual(['/cat']);
    expect(JSON.parse(decryptPush(service.received[0]!.body, catKeys))).toMatchObject({ body: 'Cat is away', chat: ann.id });
  });
});
