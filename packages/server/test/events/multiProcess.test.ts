import type { AnyEvent } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueEvents } from '../../src/events/outbox/claim.js';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { spawnServerProcess, type ServerProcess } from './child.js';
import { gate, startListener, type TestListener } from '../helpers/listener.js';

// Several server processes share one outbox only on PostgreSQL; SQLite serves one process.
describe.runIf(dialects.includes('postgres'))('two server processes on one PostgreSQL outbox', () => {
  let testStore: TestStore;
  let listener: TestListener;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    testStore = await createTestStore('postgres');
    // The listener holds its answers until more are open at once than one process's lanes can hold
    // (4 apps × 4 slots): only both processes at work can get it to answer.
    const bothAtWork = gate();
    listener = await startListener(() => {
      if (listener.open() > 16) bothAtWork.open();
      return { status: 200, after: bothAtWork.opened };
    });
    const settings = { dataDir: testStore.dataDir, databaseUrl: testStore.databaseUrl, pgSchema: testStore.pgSchema, events: { pollIntervalMs: 20 } };
    servers.push(...(await Promise.all([spawnServerProcess(settings), spawnServerProcess(settings)])));
  });
  afterAll(async () => {
    for (const server of servers) await server.kill('SIGTERM');
    await listener?.close();
    await testStore?.destroy();
  });

  it('delivers each of 200 events exactly once, with both processes at work', async () => {
    const f = factories(testStore.store.db);
    const team = await f.team();
    const developer = await f.person(team.id);
    const apps = await Promise.all(Array.from({ length: 4 }, () => f.app(team.id, developer.id, { listenerUrl: listener.url })));
    const eventIds: string[] = [];
    // One commit, so that both processes find all 200 due at the same moment.
    await testStore.store.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 200; i++) {
        const app = apps[i % apps.length];
        const event = { name: 'app.uninstall', userId: developer.id, n: i } as AnyEvent;
        eventIds.push((await enqueueEvent(tx, { appId: app.id, userId: developer.id, event }, Date.now()))!.eventId);
      }
    });

    await listener.waitFor(200, 20_000);
    await Promise.all(servers.map((server) => server.idle()));
    expect(await testStore.store.db.selectFrom('events').select('id').where('status', '!=', 'delivered').execute()).toEqual([]);
    // Both processes stop (an attempt still in flight would be abandoned, not hidden), and every
    // connection to the listener is closed: whatever they sent has been read, duplicates included.
    for (const server of servers.splice(0)) await server.kill('SIGTERM');
    await listener.allConnectionsClosed();
    const ids = listener.received.map((r) => String(r.headers['x-service-event-id']));
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort()).toEqual([...eventIds].sort());
    const attempts = await testStore.store.db.selectFrom('event_attempts').select('event_id').execute();
    expect(attempts).toHaveLength(200);
    // One process has 4 apps × 4 lane slots: more at once means both were sending.
    expect(listener.maxOpen()).toBeGreaterThan(16);
  });
});

describe.runIf(dialects.includes('postgres'))('claiming on PostgreSQL', () => {
  it('never gives one event to two claims made at the same moment from different pools', async () => {
    const testStore = await createTestStore('postgres');
    const pools = [testStore.reopen(), testStore.reopen()];
    try {
      const f = factories(testStore.store.db);
      const team = await f.team();
      const developer = await f.person(team.id);
      const app = await f.app(team.id, developer.id);
      const now = Date.now();
      await testStore.store.db.transaction().execute(async (tx) => {
        for (let i = 0; i < 200; i++) await enqueueEvent(tx, { appId: app.id, userId: developer.id, event: { name: 'app.uninstall', userId: developer.id } }, now);
      });
      const request = { now, limit: 15, perAppLimit: 1000, skipAppIds: [], leaseMs: 60_000 };
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => claimDueEvents(pools[i % 2], request)));
      const ids = claims.flat().map((event) => event.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      for (const pool of pools) await pool.close();
      await testStore.destroy();
    }
  });
});
