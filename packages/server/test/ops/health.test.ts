import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { http } from '../client/harness.js';
import { closedPort, rateLimitBackends, redisTestUrl } from '../helpers/redis.js';
import { forEachDialect } from '../helpers/server.js';
import { capturedLog, WARN } from './harness.js';

forEachDialect(
  'health and readiness',
  (t) => {
    it('GET /healthz answers that the process is alive, with no rate limit', async () => {
      for (let i = 0; i < 5; i++) {
        const alive = await http(t().url, 'GET', '/healthz');
        expect([alive.status, alive.body]).toEqual([200, { status: 'ok' }]);
        expect(alive.headers.get('x-ratelimit-limit')).toBeNull();
      }
    });

    it('GET /readyz is 200 while the store answers', async () => {
      for (let i = 0; i < 5; i++) {
        const ready = await http(t().url, 'GET', '/readyz');
        expect([ready.status, ready.body]).toEqual([200, { status: 'ok', checks: { store: 'ok' } }]);
      }
    });
  },
  // A bucket of one for every class: a probe that counted against any would be refused by the second call.
  { rateLimits: { read: { rate: 1, burst: 1 }, channel: { rate: 1, burst: 1 }, message: { rate: 1, burst: 1 } } },
);

const cleanUps: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** A server on a SQLite store of its own, or on the store given (one that cannot be reached), logging into `log`. */
async function serve(config: ConfigInput, unreachableStore?: Store) {
  const dataDir = mkdtempSync(join(tmpdir(), 'aviary-ops-'));
  cleanUps.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const log = capturedLog();
  const server = await startServer(loadConfig({ port: 0, dataDir, ...config }, {}), {
    store: unreachableStore,
    migrate: unreachableStore === undefined,
    log: log.log,
  });
  cleanUps.push(() => server.close());
  return { server, log };
}

it('GET /readyz is 503 naming the store when the database does not answer; /healthz stays 200', async () => {
  const unreachable = openStore({ databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/test`, dataDir: tmpdir() });
  const { server, log } = await serve({}, unreachable);
  const notReady = await http(server.url, 'GET', '/readyz');
  expect([notReady.status, notReady.body]).toEqual([503, { status: 'unavailable', checks: { store: 'down' } }]);
  expect((await log.next(/not ready: store does not answer/)).level).toBe(WARN);
  expect((await http(server.url, 'GET', '/healthz')).status).toBe(200);
});

it('GET /readyz is 503 naming Redis when REDIS_URL points at a Redis that is down', async () => {
  const { server, log } = await serve({ redisUrl: `redis://127.0.0.1:${await closedPort()}` });
  const notReady = await http(server.url, 'GET', '/readyz');
  expect([notReady.status, notReady.body]).toEqual([503, { status: 'unavailable', checks: { store: 'ok', redis: 'down' } }]);
  expect((await log.next(/not ready: redis does not answer/)).level).toBe(WARN);
});

it.runIf(rateLimitBackends.includes('redis'))('GET /readyz checks Redis when REDIS_URL is set', async () => {
  const { server } = await serve({ redisUrl: redisTestUrl });
  const ready = await http(server.url, 'GET', '/readyz');
  expect([ready.status, ready.body]).toEqual([200, { status: 'ok', checks: { store: 'ok', redis: 'ok' } }]);
});
