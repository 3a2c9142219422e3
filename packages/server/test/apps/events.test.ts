import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { expectError, signedInPerson, startAppListener, type AppListener } from './harness.js';

const listeners: AppListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect(
  'developer methods: events',
  (t) => {
    async function scene() {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const listener = await startAppListener();
      listeners.push(listener);
      const { app } = (await dev.call('apps.create', { name: 'Audited', listenerUrl: listener.url })).body;
      listener.useCredentials(app.id, app.secret);
      const alice = await signedInPerson(t(), team.id);
      return { team, dev, listener, app, alice };
    }

    it('lists events newest first with their attempts, tokens redacted, and replays an asynchronous one', async () => {
      const { dev, listener, app, alice } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await listener.waitForVerified(2);
      // The answers are in; once the worker is idle they are recorded too.
      await t().server.ctx.events.idle();
      const { events } = (await dev.call('deliveries.list', { appId: app.id })).body;
      expect(events).toMatchObject([
        { name: 'app.uninstall', userId: alice.user.id, synchronous: false, status: 'delivered', event: { name: 'app.uninstall', userId: alice.user.id } },
        { name: 'app.install', synchronous: true, status: 'delivered', event: { token: '[redacted]', userToken: '[redacted]' } },
      ]);
      const [uninstall, install] = events;
      expect((await dev.call('deliveries.list', { appId: app.id, limit: 1 })).body.events.map((e: { id: string }) => e.id)).toEqual([uninstall.id]);
      expect((await dev.call('deliveries.list', { appId: app.id, before: uninstall.id })).body.events.map((e: { id: string }) => e.id)).toEqual([install.id]);
      expect((await dev.call('deliveries.list', { appId: app.id, status: 'failed' })).body.events).toEqual([]);
      expectError(await dev.call('deliveries.list', { appId: app.id, limit: 0 }), 400, 'InvalidParameter', 'limit');
      expectError(await dev.call('deliveries.list', { appId: app.id, status: 'lost' }), 400, 'InvalidParameter', 'status');

      const attempts = (await dev.call('deliveries.listAttempts', { appId: app.id, eventId: uninstall.id })).body.attempts;
      expect(attempts).toMatchObject([{ eventId: uninstall.id, retryNum: 0, status: 200, outcome: 'delivered' }]);

      expect((await dev.call('deliveries.replay', { appId: app.id, eventId: uninstall.id })).body).toEqual({ replayed: true });
      const [, , replayed] = await listener.waitForVerified(3);
      expect(replayed).toMatchObject({ eventId: uninstall.id, event: { name: 'app.uninstall' }, claims: { jti: uninstall.id } });
      expectError(await dev.call('deliveries.replay', { appId: app.id, eventId: install.id }), 400, 'InvalidParameter', 'eventId');
    });

    it('filters events by name, with or without a status; an unknown name is refused', async () => {
      const { dev, listener, app, alice } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await listener.waitForVerified(2);
      const ids = async (query: Record<string, string>) => (await dev.call('deliveries.list', { appId: app.id, ...query })).body.events.map((e: { name: string }) => e.name);
      await t().server.ctx.events.idle();
      expect(await ids({ name: 'app.uninstall', status: 'delivered' })).toEqual(['app.uninstall']);
      expect(await ids({ name: 'app.install' })).toEqual(['app.install']);
      expect(await ids({ name: 'app.uninstall' })).toEqual(['app.uninstall']);
      expect(await ids({ name: 'app.install', status: 'failed' })).toEqual([]);
      expect(await ids({ name: 'client.slashCommand' })).toEqual([]);
      expectError(await dev.call('deliveries.list', { appId: app.id, name: 'app.explode' }), 400, 'InvalidParameter', 'name');
    });

    it('pauses delivery by hand: events wait as paused until resumed, and a second pause keeps the first time', async () => {
      const { dev, listener, app, alice } = await scene();
      expect((await dev.call('deliveries.pause', { appId: app.id })).body).toEqual({ paused: true });
      const pausedAt = (await dev.call('apps.getInfo', { appId: app.id })).body.app.deliveryPausedAt;
      expect(pausedAt).toEqual(expect.any(Number));
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await t().server.ctx.events.idle();
      // The synchronous install still reaches the app; the asynchronous uninstall waits.
      expect(listener.verified.map((event) => event.event.name)).toEqual(['app.install']);
      expect((await dev.call('deliveries.list', { appId: app.id, status: 'paused' })).body.events).toMatchObject([{ name: 'app.uninstall' }]);
      expect((await dev.call('deliveries.pause', { appId: app.id })).body).toEqual({ paused: true });
      expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.deliveryPausedAt).toBe(pausedAt);

      await dev.call('deliveries.resume', { appId: app.id });
      const [, uninstall] = await listener.waitForVerified(2);
      expect(uninstall.event.name).toBe('app.uninstall');
      expectError(await alice.call('deliveries.pause', { appId: app.id }), 404, 'UnknownApp');
    });

    it('keeps another app’s events out of reach', async () => {
      const first = await scene();
      const second = await scene();
      await first.alice.request('POST', '/v1/apps.install', { appId: first.app.id });
      const [event] = (await first.dev.call('deliveries.list', { appId: first.app.id })).body.events;
      expectError(await second.dev.call('deliveries.listAttempts', { appId: second.app.id, eventId: event.id }), 400, 'InvalidParameter', 'eventId');
      expectError(await second.dev.call('deliveries.replay', { appId: second.app.id, eventId: event.id }), 400, 'InvalidParameter', 'eventId');
      expectError(await second.dev.call('deliveries.listAttempts', { appId: first.app.id, eventId: event.id }), 404, 'UnknownApp');
      expect((await second.dev.call('deliveries.list', { appId: second.app.id })).body.events).toEqual([]);
    });

    it('resumes paused delivery: the waiting events go out', async () => {
      const { dev, listener, app, alice } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      // Pausing takes three days of failures; the test starts from a paused app instead.
      await t().testStore.store.db.updateTable('apps').set({ delivery_paused_at: Date.now() }).where('id', '=', app.id).execute();
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      // All that would go out now has: the uninstall event must not be among it.
      await t().server.ctx.events.idle();
      expect(listener.verified).toHaveLength(1);
      expect((await dev.call('deliveries.list', { appId: app.id, status: 'paused' })).body.events).toMatchObject([{ name: 'app.uninstall' }]);
      expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.deliveryPausedAt).toEqual(expect.any(Number));

      expect((await dev.call('deliveries.resume', { appId: app.id })).body).toEqual({ resumed: true });
      const [, uninstall] = await listener.waitForVerified(2);
      expect(uninstall.event).toEqual({ name: 'app.uninstall', userId: alice.user.id });
      expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.deliveryPausedAt).toBeNull();
    });
  },
  {},
  { events: { pollIntervalMs: 50 } },
);
