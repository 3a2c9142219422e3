import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { teamWithApp } from '../helpers/factories.js';
import { inParallel, plainHttp } from '../helpers/http.js';
import { forEachDialect } from '../helpers/server.js';

/**
 * Oversized input must not stay in memory: neither as a cache key (the token cache once kept every
 * token string it saw) nor as a rate-limit key (the per-recipient key once held the raw `to`). The
 * server runs in this process, so its retained heap is measured here, after full collections.
 */
const REQUESTS = 200;
const OVERSIZED = 900 * 1024;
const BOUND_BYTES = 50 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function retainedHeap(): number {
  for (let i = 0; i < 3; i++) collectGarbage();
  return getHeapStatistics().used_heap_size;
}

/** Sends `count` form bodies made by `body()`, eight at a time, and returns the statuses seen. */
async function sendAll(baseUrl: string, path: string, count: number, body: () => string): Promise<Set<number>> {
  const http = plainHttp(baseUrl, 8);
  const statuses = new Set<number>();
  await inParallel(count, 8, async () => {
    const form = body();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) };
    statuses.add((await http.send({ method: 'POST', path, headers, body: form })).status);
  });
  http.close();
  return statuses;
}

let made = 0;
/** A string of OVERSIZED characters unlike any other made here, so that nothing can be shared between requests. */
const oversized = (): string => `${(made++).toString(36)}-`.padEnd(OVERSIZED, 'A');

forEachDialect(
  'memory: oversized tokens and recipients are not kept',
  (t) => {
    it(`${REQUESTS} requests with ${OVERSIZED / 1024} KiB tokens leave the heap within ${BOUND_BYTES / 2 ** 20} MB`, async () => {
      const before = retainedHeap();
      const statuses = await sendAll(t().url, '/v1/users.getInfo', REQUESTS, () => `token=${oversized().replaceAll('-', '_')}`);
      expect([...statuses]).toEqual([403]);
      expect(retainedHeap() - before).toBeLessThan(BOUND_BYTES);
    }, 120_000);

    it(`${REQUESTS} chat.sendMessage calls with a ${OVERSIZED / 1024} KiB "to" leave the heap within ${BOUND_BYTES / 2 ** 20} MB`, async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 1);
      const before = retainedHeap();
      const statuses = await sendAll(t().url, '/v1/chat.sendMessage', REQUESTS, () => `token=${people[0].token}&text=hi&to=${oversized()}`);
      expect([...statuses]).toEqual([400]);
      expect(retainedHeap() - before).toBeLessThan(BOUND_BYTES);
    }, 120_000);
  },
  // Every call reaches the per-recipient limit, as calls from many tokens would.
  { rateLimits: { message: { rate: 1e6, burst: 1e6 }, messagePerRecipient: { rate: 1e6, burst: 1e6 } } },
);
