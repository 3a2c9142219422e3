import type { AnyEvent } from '@aviary/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { spawnServerProcess, type ServerProcess } from './child.js';
import { closedPortUrl, startListener, type TestListener } from '../helpers/listener.js';

for (const dialect of dialects) {
  describe(`a server process killed with SIGKILL [${dialect}]`, () => {
    const cleanups: Array<() => Promise<unknown>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setUp(listenerUrl: string, count: number) {
      const testStore = await createTestStore(dialect);
      cleanups.push(() => testStore.destroy());
      const f = factories(testStore.store.db);
      const team = await f.team();
      const developer = await f.person(team.id);
      const app = await f.app(team.id, developer.id, { listenerUrl });
      const eventIds: string[] = [];
      for (let i = 0; i < count; i++) {
        const event = { name: 'app.uninstall', userId: developer.id, n: i } as AnyEvent;
        eventIds.push((await enqueueEvent(testStore.store.db, { appId: app.id, userId: developer.id, event }, Date.now()))!.eventId);
      }
      return { testStore, app, eventIds };
    }

    async function spawn(testStore: TestStore, events: { leaseMs?: number; answerTimeoutMs?: number } = {}) {
      const server = await spawnServerProcess({
        dataDir: testStore.dataDir,
        databaseUrl: testStore.databaseUrl,
        pgSchema: testStore.pgSchema,
        events: { pollIntervalMs: 50, ...events },
      });
      cleanups.push(() => server.kill('SIGKILL'));
      return server;
    }

    function listen(listener: TestListener): TestListener {
      cleanups.push(() => listener.close());
      return listener;
    }

    const events = (testStore: TestStore, ids: string[]) => testStore.store.db.selectFrom('events').selectAll().where('id', 'in', ids).execute();

    // Each test starts two server processes (tsx compiles the server in each): slow on a busy machine.
    it('leaves failed events to a new process, which delivers them all at once with their ids', { timeout: 90_000 }, async () => {
      const { testStore, app, eventIds } = await setUp(await closedPortUrl(), 12);
      const first: ServerProcess = await spawn(testStore);
      await first.idle();
      expect((await events(testStore, eventIds)).map((row) => ({ retryNum: row.retry_num, claimed: row.claim_token !== null }))).toEqual(
        eventIds.map(() => ({ retryNum: 1, claimed: false })),
      );
      await first.kill('SIGKILL');

      const listener = listen(await startListener());
      await testStore.store.db.updateTable('apps').set({ listener_url: listener.url }).where('id', '=', app.id).execute();
      // No clock moved on: a starting process probes the waiting listener at once, and its 2xx sends the rest.
      const second = await spawn(testStore);
      const received = await listener.waitFor(eventIds.length, 10_000);
      expect(received.map((r) => r.headers['x-service-event-id']).sort()).toEqual([...eventIds].sort());
      for (const request of received) {
        expect(request.headers['x-service-retry-num']).toBe('1');
        expect(request.headers['x-service-retry-reason']).toBe('connection_failed');
      }
      await second.idle();
      expect((await events(testStore, eventIds)).map((row) => row.status)).toEqual(eventIds.map(() => 'delivered'));
    });

    it('gives a killed process’s claims to a new process once their lease runs out', { timeout: 90_000 }, async () => {
      const listener = listen(await startListener(() => 'hang'));
      const { testStore, eventIds } = await setUp(listener.url, 10);
      const lease = { leaseMs: 1_500, answerTimeoutMs: 1_000 };
      const first = await spawn(testStore, lease);
      // The killed process's lane was full: four events in flight, leased to it.
      await listener.waitForOpen(4, 10_000);
      const leased = (await events(testStore, eventIds)).filter((row) => row.claim_token !== null);
      expect(leased).toHaveLength(4);
      await first.kill('SIGKILL');

      listener.respond = () => ({ status: 200 });
      const second = await spawn(testStore, lease);
      const received = (await listener.waitFor(4 + eventIds.length, 10_000)).slice(4);
      expect(received.map((r) => r.headers['x-service-event-id']).sort()).toEqual([...eventIds].sort());
      expect(received.every((r) => r.headers['x-service-retry-num'] === '0')).toBe(true);
      // The leased events went out only after their lease had passed.
      const leaseEnd = Math.max(...leased.map((row) => row.claimed_until!));
      await second.idle();
      const deliveredRows = await events(testStore, eventIds);
      expect(deliveredRows.map((row) => row.status)).toEqual(eventIds.map(() => 'delivered'));
      for (const row of deliveredRows.filter((r) => leased.some((l) => l.id === r.id))) expect(row.delivered_at!).toBeGreaterThanOrEqual(leaseEnd);
    });
  });
}
