import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { expectError, signedInPerson, startAppListener, type AppListener } from './harness.js';

const listeners: AppListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect(
  'developer API: events',
  (t) => {
    async function scene() {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const listener = await startAppListener();
      listeners.push(listener);
      const { app } = (await dev.request('POST', '/api/developer/apps', { name: 'Audited', listenerUrl: listener.url })).body;
      listener.useCredentials(app.id, app.secret);
      const alice = await signedInPerson(t(), team.id);
      return { team, dev, listener, app, alice, base: `/api/developer/apps/${app.id}` };
    }

    it('lists events newest first with their attempts, tokens redacted, and replays an asynchronous one', async () => {
      const { dev, listener, app, alice, base } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await listener.waitForVerified(2);
      // The answers are in; once the worker is idle they are recorded too.
      await t().server.ctx.events.idle();
      const { events } = (await dev.request('GET', `${base}/events`)).body;
      expect(events).toMatchObject([
        { name: 'app.uninstall', userId: alice.user.id, synchronous: false, status: 'delivered', event: { name: 'app.uninstall', userId: alice.user.id } },
        { name: 'app.install', synchronous: true, status: 'delivered', event: { token: '[redacted]', userToken: '[redacted]' } },
      ]);
      const [uninstall, install] = events;
      expect((await dev.request('GET', `${base}/events?limit=1`)).body.events.map((e: { id: string }) => e.id)).toEqual([uninstall.id]);
      expect((await dev.request('GET', `${base}/events?before=${uninstall.id}`)).body.events.map((e: { id: string }) => e.id)).toEqual([install.id]);
      expect((await dev.request('GET', `${base}/events?status=failed`)).body.events).toEqual([]);
      expectError(await dev.request('GET', `${base}/events?limit=0`), 400, 'InvalidParameter', 'limit');
      expectError(await dev.request('GET', `${base}/events?status=lost`), 400, 'InvalidParameter', 'status');

      const attempts = (await dev.request('GET', `${base}/events/${uninstall.id}/attempts`)).body.attempts;
      expect(attempts).toMatchObject([{ eventId: uninstall.id, retryNum: 0, status: 200, outcome: 'delivered' }]);

      expect((await dev.request('POST', `${base}/events/${uninstall.id}/replay`)).body).toEqual({ replayed: true });
      const [, , replayed] = await listener.waitForVerified(3);
      expect(replayed).toMatchObject({ eventId: uninstall.id, event: { name: 'app.uninstall' }, claims: { jti: uninstall.id } });
      expectError(await dev.request('POST', `${base}/events/${install.id}/replay`), 400, 'InvalidParameter', 'eventId');
    });

    it('filters events by name, with or without a status; an unknown name is refused', async () => {
      const { dev, listener, app, alice, base } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await listener.waitForVerified(2);
      const ids = async (query: string) => (await dev.request('GET', `${base}/events?${query}`)).body.events.map((e: { name: string }) => e.name);
      await t().server.ctx.events.idle();
      expect(await ids('name=app.uninstall&status=delivered')).toEqual(['app.uninstall']);
      expect(await ids('name=app.install')).toEqual(['app.install']);
      expect(await ids('name=app.uninstall')).toEqual(['app.uninstall']);
      expect(await ids('name=app.install&status=failed')).toEqual([]);
      expect(await ids('name=client.slashCommand')).toEqual([]);
      expectError(await dev.request('GET', `${base}/events?name=app.explode`), 400, 'InvalidParameter', 'name');
    });

    it('pauses delivery by hand: events wait as paused until resumed, and a second pause keeps the first time', async () => {
      const { dev, listener, app, alice, base } = await scene();
      expect((await dev.request('POST', `${base}/delivery/pause`)).body).toEqual({ paused: true });
      const pausedAt = (await dev.request('GET', base)).body.app.deliveryPausedAt;
      expect(pausedAt).toEqual(expect.any(Number));
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await t().server.ctx.events.idle();
      // The synchronous install still reaches the app; the asynchronous uninstall waits.
      expect(listener.verified.map((event) => event.event.name)).toEqual(['app.install']);
      expect((await dev.request('GET', `${base}/events?status=paused`)).body.events).toMatchObject([{ name: 'app.uninstall' }]);
      expect((await dev.request('POST', `${base}/delivery/pause`)).body).toEqual({ paused: true });
      expect((await dev.request('GET', base)).body.app.deliveryPausedAt).toBe(pausedAt);

      await dev.request('POST', `${base}/delivery/resume`);
      const [, uninstall] = await listener.waitForVerified(2);
      expect(uninstall.event.name).toBe('app.uninstall');
      expectError(await alice.request('POST', `${base}/delivery/pause`), 404, 'UnknownApp');
    });

    it('keeps another app’s events out of reach', async () => {
      const first = await scene();
      const second = await scene();
      await first.alice.request('POST', '/v1/apps.install', { appId: first.app.id });
      const [event] = (await first.dev.request('GET', `${first.base}/events`)).body.events;
      expectError(await second.dev.request('GET', `${second.base}/events/${event.id}/attempts`), 400, 'InvalidParameter', 'eventId');
      expectError(await second.dev.request('POST', `${second.base}/events/${event.id}/replay`), 400, 'InvalidParameter', 'eventId');
      expectError(await second.dev.request('GET', `${first.base}/events/${event.id}/attempts`), 404, 'UnknownApp');
      expect((await second.dev.request('GET', `${second.base}/events`)).body.events).toEqual([]);
    });

    it('resumes paused delivery: the waiting events go out', async () => {
      const { dev, listener, app, alice, base } = await scene();
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      // Pausing takes three days of failures; the test starts from a paused app instead.
      await t().testStore.store.db.updateTable('apps').set({ delivery_paused_at: Date.now() }).where('id', '=', app.id).execute();
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      // All that would go out now has: the uninstall event must not be among it.
      await t().server.ctx.events.idle();
      expect(listener.verified).toHaveLength(1);
      expect((await dev.request('GET', `${base}/events?status=paused`)).body.events).toMatchObject([{ name: 'app.uninstall' }]);
      expect((await dev.request('GET', base)).body.app.deliveryPausedAt).toEqual(expect.any(Number));

      expect((await dev.request('POST', `${base}/delivery/resume`)).body).toEqual({ resumed: true });
      const [, uninstall] = await listener.waitForVerified(2);
      expect(uninstall.event).toEqual({ name: 'app.uninstall', userId: alice.user.id });
      expect((await dev.request('GET', base)).body.app.deliveryPausedAt).toBeNull();
    });
  },
  {},
  { events: { pollIntervalMs: 50 } },
);
