import { afterEach, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { rawCall } from '../helpers/server.js';
import { teamWithApp } from '../helpers/factories.js';
import { closedPort, rateLimitBackends, redisScratch, redisTestUrl } from '../helpers/redis.js';
import { dialects } from '../helpers/dialects.js';
import { createTestStore } from '../helpers/store.js';
import { capturedLog, WARN } from './harness.js';

const cleanUps: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

const readBurstOfThree: ConfigInput = { rateLimits: { read: { rate: 1, burst: 3 } } };

/**
 * Two servers on one store, as two processes behind a load balancer are; `config` for both. On
 * PostgreSQL when there is one: two SQLite connections in this one thread would wait on each other's
 * write lock by blocking the event loop that could release it, until SQLite's busy timeout (5 s).
 */
async function twoServers(config: ConfigInput, now: () => number) {
  const testStore = await createTestStore(dialects.includes('postgres') ? 'postgres' : 'sqlite');
  cleanUps.push(() => testStore.destroy());
  const log = capturedLog();
  const start = async (store = testStore.store) => {
    const server = await startServer(loadConfig({ port: 0, dataDir: testStore.dataDir, ...config }, {}), { store, now, migrate: false, log: log.log });
    cleanUps.push(() => server.close());
    return server;
  };
  const { people } = await teamWithApp(testStore.store.db, 1);
  const servers: [RunningServer, RunningServer] = [await start(), await start(testStore.reopen())];
  const getInfo = async (server: RunningServer) => {
    const answer = await rawCall(server.url, 'users.getInfo', { query: { token: people[0].token } });
    return [answer.status, answer.headers.get('x-ratelimit-remaining')];
  };
  return { servers, getInfo, log };
}

it.runIf(rateLimitBackends.includes('redis'))('two servers on one Redis take from one bucket per token', async () => {
  const scratch = redisScratch();
  cleanUps.push(() => scratch.cleanUp());
  const clock = Date.now();
  const { servers: [one, two], getInfo } = await twoServers({ ...readBurstOfThree, redisUrl: redisTestUrl, redisKeyPrefix: scratch.prefix }, () => clock);
  expect([await getInfo(one), await getInfo(two), await getInfo(one), await getInfo(two)]).toEqual([
    [200, '2'],
    [200, '1'],
    [200, '0'],
    [429, '0'],
  ]);
  expect(await scratch.keys()).toHaveLength(1);
});

it('without Redis each server keeps its own buckets', async () => {
  const clock = Date.now();
  const { servers: [one, two], getInfo } = await twoServers(readBurstOfThree, () => clock);
  expect([await getInfo(one), await getInfo(two), await getInfo(one)]).toEqual([
    [200, '2'],
    [200, '2'],
    [200, '1'],
  ]);
});

it('when Redis is down, calls are still answered and limited by each server’s own buckets, with a warning', async () => {
  const clock = Date.now();
  const { servers: [one, two], getInfo, log } = await twoServers({ ...readBurstOfThree, redisUrl: `redis://127.0.0.1:${await closedPort()}` }, () => clock);
  expect([await getInfo(one), await getInfo(one), await getInfo(one), await getInfo(one), await getInfo(two)]).toEqual([
    [200, '2'],
    [200, '1'],
    [200, '0'],
    [429, '0'],
    [200, '2'],
  ]);
  const warning = await log.next(/Redis did not answer a rate-limit take/);
  expect(warning.level).toBe(WARN);
  // Said once when the outage starts, not at every call.
  expect(log.lines.filter((line) => /Redis did not answer/.test(line.msg))).toHaveLength(2);
});
