import type { AnyEvent } from '@aviary/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { deliverSynchronously } from '../../src/events/delivery/sync.js';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { startServer } from '../../src/server.js';
import type { Db } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { appAtListener, enqueueMany } from './appAtListener.js';
import { answerOk, closedPortUrl, fakeClock, startListener, type Received, type Responder, type TestListener } from '../helpers/listener.js';
import { loopbackHosts, startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { createTestStore } from '../helpers/store.js';

const events = { answerTimeoutMs: 300, leaseMs: 5_000, pollIntervalMs: 50, listenerProbeIntervalMs: 50 };
const idsOf = (received: Received[]) => received.map((request) => String(request.headers['x-service-event-id']));

/** The ids of the events whose delivery succeeded, in the order their successful attempts started. */
async function deliveredInOrder(db: Db, appId: string): Promise<string[]> {
  const rows = await db.selectFrom('event_attempts').select('event_id').where('app_id', '=', appId).where('outcome', '=', 'delivered').orderBy('id').execute();
  return rows.map((row) => row.event_id);
}

for (const dialect of dialects) {
  describe(`an app's listener backing off [${dialect}]`, () => {
    const clock = fakeClock();
    let t: TestServer;
    const listeners: TestListener[] = [];

    beforeAll(async () => {
      t = await startTestServer(dialect, {}, { now: clock.now, events });
    });
    afterAll(async () => {
      await stopTestServer(t);
    });
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    const db = () => t.server.ctx.db;
    const advance = (ms: number) => {
      clock.advance(ms);
      t.server.ctx.events.wake();
    };
    // Everything due at the clock's time has been sent and recorded.
    const nothingMoreDue = () => t.server.ctx.events.idle();
    const appRow = (id: string) => db().selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const eventRows = (ids: string[]) => db().selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id').execute();

    const appListening = (respond: Responder | string) => appAtListener(t, listeners, respond);

    it('holds what fails, tries the listener again with its oldest event alone on the ladder, then sends the rest at once, oldest first', async () => {
      let up = false;
      const { listener, app, send: enqueue } = await appListening(() => ({ status: up ? 200 : 503 }));
      const ids = await enqueue(5);
      await listener.waitFor(5);
      await nothingMoreDue();
      expect((await eventRows(ids)).every((row) => row.status === 'pending' && row.retry_num === 1 && row.next_attempt_at === null)).toBe(true);
      expect((await appRow(app.id)).listener_retry_step).toBe(1);

      // The first rung is about 10 s (at least 8 s): nothing before it, then one probe only.
      advance(7_900);
      await nothingMoreDue();
      expect(listener.received).toHaveLength(5);
      advance(4_200);
      await nothingMoreDue();
      expect(idsOf(listener.received.slice(5))).toEqual([ids[0]]);
      expect((await appRow(app.id)).listener_retry_step).toBe(2);

      up = true;
      advance(72_000);
      const received = await listener.waitFor(11);
      await nothingMoreDue();
      expect(idsOf(received.slice(6, 7))).toEqual([ids[0]]);
      expect(received[6].headers['x-service-retry-num']).toBe('2');
      expect(idsOf(received.slice(7)).sort()).toEqual(ids.slice(1));
      expect(received.slice(7).every((request) => request.headers['x-service-retry-num'] === '1')).toBe(true);
      expect(await deliveredInOrder(db(), app.id)).toEqual(ids);
      expect(await appRow(app.id)).toMatchObject({ listener_retry_at: null, listener_retry_step: 0, delivery_failing_since: null });
    });

    it('sends the waiting events as soon as a new event gets a 2xx, long before the retry time', async () => {
      let up = false;
      const { listener, app, send: enqueue } = await appListening(() => ({ status: up ? 200 : 500 }));
      const waiting = await enqueue(3);
      await listener.waitFor(3);
      await nothingMoreDue();

      up = true;
      const [fresh] = await enqueue(1);
      const received = await listener.waitFor(7);
      expect(idsOf(received.slice(3, 4))).toEqual([fresh]);
      expect(idsOf(received.slice(4)).sort()).toEqual(waiting);
      await nothingMoreDue();
      expect(await deliveredInOrder(db(), app.id)).toEqual([fresh, ...waiting]);
      expect((await eventRows(waiting)).map((row) => row.status)).toEqual(['delivered', 'delivered', 'delivered']);
    });

    it('sends the waiting events as soon as the listener answers a synchronous event with a 2xx', async () => {
      let up = false;
      const { listener, app, developer, send } = await appListening(() => ({ status: up ? 200 : 500, body: '{}' }));
      const waiting = await send(2);
      await listener.waitFor(2);
      await nothingMoreDue();

      up = true;
      const pressed = { name: 'client.pressButton', userId: developer.id, userName: 'Pat', chat: developer.id, chatName: 'Pat', button: 'appLauncherButton' } as AnyEvent;
      expect(await deliverSynchronously(t.server.ctx, { appId: app.id, userId: developer.id, event: pressed, timeoutMs: 2_000 })).toMatchObject({ ok: true });
      expect(idsOf((await listener.waitFor(5)).slice(3)).sort()).toEqual(waiting);
      expect(await appRow(app.id)).toMatchObject({ listener_retry_at: null, listener_retry_step: 0 });
    });

    it('lets the next waiting event probe at once when the listener refuses a probe for good', async () => {
      let up = false;
      const refusedFirst: Responder = (request) => (!up ? { status: 503 } : request.body.n === 0 ? { status: 400 } : { status: 200 });
      const { listener, send: enqueue } = await appListening(refusedFirst);
      const ids = await enqueue(3);
      await listener.waitFor(3);
      await nothingMoreDue();

      up = true;
      advance(12_500);
      const received = await listener.waitFor(6);
      expect(idsOf(received.slice(3, 5))).toEqual([ids[0], ids[1]]);
      expect(idsOf(received.slice(5))).toEqual([ids[2]]);
      await nothingMoreDue();
      expect((await eventRows(ids)).map((row) => row.status)).toEqual(['failed', 'delivered', 'delivered']);
    });

    it('brings back a listener that could not be reached as soon as it accepts connections, without waiting for its retry time', async () => {
      const url = await closedPortUrl();
      const { app, send: enqueue } = await appListening(url);
      const ids = await enqueue(4);
      await nothingMoreDue();
      const down = await appRow(app.id);
      expect(down).toMatchObject({ listener_retry_step: 1, listener_unreachable: 1 });
      expect(down.listener_retry_at).toBeGreaterThan(clock.now());

      // The clock stands still: only a connection to the listener can make its probe due.
      const listener = await startListener(answerOk, Number(new URL(url).port));
      listeners.push(listener);
      const received = await listener.waitFor(4);
      expect(idsOf(received.slice(0, 1))).toEqual([ids[0]]);
      expect(idsOf(received).sort()).toEqual(ids);
      await nothingMoreDue();
      expect((await eventRows(ids)).map((row) => row.status)).toEqual(ids.map(() => 'delivered'));
    });

    it('never holds up another app: its events go at once while one app’s listener backs off', async () => {
      const failing = await appListening(() => ({ status: 500 }));
      const healthy = await appListening(answerOk);
      await failing.send(3);
      await failing.listener.waitFor(3);
      const ids = await healthy.send(3);
      expect(idsOf(await healthy.listener.waitFor(3)).sort()).toEqual(ids);
    });
  });

  describe(`a restarted server [${dialect}]`, () => {
    it('probes a waiting listener at once, and sends at once what an older server scheduled for later', async () => {
      const clock = fakeClock();
      const testStore = await createTestStore(dialect);
      const listener = await startListener(() => ({ status: 503 }));
      const config = loadConfig({ port: 0, host: '127.0.0.1', dataDir: testStore.dataDir, logLevel: 'silent', allowedInternalHosts: loopbackHosts }, {});
      try {
        const first = await startServer(config, { store: testStore.store, now: clock.now, events });
        const f = factories(testStore.store.db, clock.now);
        const team = await f.team();
        const developer = await f.person(team.id);
        const app = await f.app(team.id, developer.id, { listenerUrl: listener.url });
        const held = await enqueueMany(first.ctx.db, app.id, developer.id, 3, clock.now());
        first.ctx.events.wake();
        await listener.waitFor(3);
        await first.ctx.events.idle();
        // An event that a server from before listener backoff would have retried in an hour.
        const scheduled = await first.ctx.db.transaction().execute(async (tx) => {
          const { eventId } = (await enqueueEvent(tx, { appId: app.id, userId: developer.id, event: { name: 'app.uninstall', userId: developer.id } }, clock.now()))!;
          await tx.updateTable('events').set({ next_attempt_at: clock.now() + 3_600_000, retry_num: 3 }).where('id', '=', eventId).execute();
          return eventId;
        });
        await first.close();

        listener.respond = answerOk;
        const second = await startServer(config, { store: testStore.reopen(), now: clock.now, events });
        try {
          const received = await listener.waitFor(3 + 4);
          expect(idsOf(received.slice(3)).sort()).toEqual([...held, scheduled].sort());
          // The probe went first, alone among the held events.
          expect(idsOf(received.slice(3)).indexOf(held[0])).toBeLessThan(idsOf(received.slice(3)).indexOf(held[1]));
          await second.ctx.events.idle();
          const rows = await second.ctx.db.selectFrom('events').select('status').where('app_id', '=', app.id).execute();
          expect(rows.map((row) => row.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
        } finally {
          await second.close();
        }
      } finally {
        await listener.close();
        await testStore.destroy();
      }
    });
  });
}
