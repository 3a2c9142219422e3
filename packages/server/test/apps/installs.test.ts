import { afterAll, expect, it } from 'vitest';
import { forEachDialect, type CallResult } from '../helpers/server.js';
import { expectError, refusingUrl, signedInPerson, startAppListener, tokenOutcome, type AppListener, type ListenerBehaviour, type Person } from './harness.js';

const listeners: AppListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

/**
 * Long enough for a listener on a loaded machine to answer (the SDK's listener answers at once; with 300 ms,
 * a busy CI machine sometimes missed it and the install failed), short for the test of a listener that
 * never answers.
 */
const installTimeoutMs = 2000;

forEachDialect(
  'installs',
  (t) => {
    /** A team, the developer of an app whose listener behaves as told, and a teammate to install it. */
    async function scene(behaviour: ListenerBehaviour = 'sdk', integrations: unknown = {}) {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const listener = await startAppListener(behaviour);
      listeners.push(listener);
      const { app } = (await dev.call('apps.create', { name: 'Helper', listenerUrl: listener.url, integrations })).body;
      listener.useCredentials(app.id, app.secret);
      return { team, dev, listener, app, alice: await signedInPerson(t(), team.id) };
    }

    const install = (person: Person, appId: string) => person.request('POST', '/v1/apps.install', { appId });

    it('delivers a verified app.install carrying the token, which then acts for the person', async () => {
      const { listener, app, alice } = await scene();
      const answer = await install(alice, app.id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ installed: true });
      const [{ event, claims }] = await listener.waitForVerified(1);
      expect(event).toEqual({ name: 'app.install', userId: alice.user.id, token: expect.stringMatching(/^au_/), userToken: expect.any(String) });
      const { token, userToken } = event as { token: string; userToken: string };
      expect(userToken).toBe(token);
      expect(claims).toMatchObject({ appId: app.id, userId: alice.user.id });
      const me = await t().call('users.getInfo', { query: { token } });
      expect(me.body).toMatchObject({ id: alice.user.id });

      // Installing again replaces the token.
      await install(alice, app.id);
      const [, again] = await listener.waitForVerified(2);
      const newToken = (again.event as { token: string }).token;
      expect(newToken).not.toBe(token);
      expect(await tokenOutcome(t(), token)).toBe('InvalidToken');
      expect(await tokenOutcome(t(), newToken)).toBe('ok');
    });

    async function expectNothingInstalled(app: { id: string }, alice: Person, listener: AppListener) {
      const db = t().testStore.store.db;
      expect(await db.selectFrom('installs').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
      expect(await db.selectFrom('app_tokens').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
      for (const request of listener.requests) expect(await tokenOutcome(t(), request.body.token)).toBe('InvalidToken');
      const [listed] = (await alice.request('POST', '/v1/apps.listDirectory', {})).body.apps;
      expect(listed).toMatchObject({ id: app.id, installed: false });
    }

    it('stores nothing when the listener answers 500, and says so', async () => {
      const { listener, app, alice } = await scene({ status: 500 });
      const answer = await install(alice, app.id);
      expectError(answer, 502, 'InstallFailed');
      expect(answer.body.description).toMatch(/answered HTTP 500/);
      expect(listener.requests).toHaveLength(1);
      await expectNothingInstalled(app, alice, listener);
    });

    it('stores nothing when the listener answers another 2xx than 200', async () => {
      const { listener, app, alice } = await scene({ status: 204 });
      const answer = await install(alice, app.id);
      expectError(answer, 502, 'InstallFailed');
      expect(answer.body.description).toMatch(/answered HTTP 204 .*exactly 200/);
      await expectNothingInstalled(app, alice, listener);
    });

    it('stores nothing when the listener does not answer within installTimeoutMs', async () => {
      const { listener, app, alice } = await scene('hang');
      // The listener never answers: that the install is answered at all, naming the limit, shows it gave up.
      const answer = await install(alice, app.id);
      expectError(answer, 502, 'InstallFailed');
      expect(answer.body.description).toMatch(/did not answer app\.install within 2 s/);
      await expectNothingInstalled(app, alice, listener);
    });

    it('stores nothing when the listener refuses the connection, or there is no listener URL', async () => {
      const { dev, listener, app, alice } = await scene();
      await dev.call('apps.update', { appId: app.id, listenerUrl: await refusingUrl() });
      const refused = await install(alice, app.id);
      expectError(refused, 502, 'InstallFailed');
      expect(refused.body.description).toMatch(/its event listener could not be reached\. /);
      await dev.call('apps.update', { appId: app.id, listenerUrl: null });
      const none = await install(alice, app.id);
      expectError(none, 502, 'InstallFailed');
      expect(none.body.description).toMatch(/no event listener URL/);
      await expectNothingInstalled(app, alice, listener);
    });

    /** A listener answer held back until the test lets it go. */
    function heldAnswer(status = 200) {
      let release!: () => void;
      const after = new Promise<void>((resolve) => (release = resolve));
      return { behaviour: { status, after }, release };
    }

    it('runs one install of an app for a person at a time: those arriving meanwhile are refused, so the token stored is the one the app was sent', async () => {
      const { listener, app, alice, team } = await scene();
      const held = heldAnswer();
      listener.behaviour = held.behaviour;
      // A double click, and more: five at once. One claims the install; the others are refused while it waits.
      const calls = Array.from({ length: 5 }, () => install(alice, app.id));
      const refused = await new Promise<CallResult[]>((resolve) => {
        const answers: CallResult[] = [];
        for (const call of calls) void call.then((answer) => answer.status === 409 && answers.push(answer) === 4 && resolve(answers));
      });
      for (const answer of refused) expectError(answer, 409, 'InstallInProgress');
      expect(listener.requests).toHaveLength(1);
      // Another person's install of the same app is not held up.
      listener.behaviour = 'sdk';
      const bob = await signedInPerson(t(), team.id);
      expect((await install(bob, app.id)).status).toBe(200);
      held.release();
      expect((await Promise.all(calls)).filter((answer) => answer.status === 200)).toHaveLength(1);
      const sent = listener.requests.find((request) => request.body.userId === alice.user.id)!.body.token as string;
      expect(await tokenOutcome(t(), sent)).toBe('ok');
      // Its claim given back, the next install goes out and replaces the token.
      expect((await install(alice, app.id)).status).toBe(200);
      const again = (await listener.waitForVerified(2)).map(({ event }) => event as { userId: string; token: string }).filter((event) => event.userId === alice.user.id);
      expect(again).toHaveLength(1);
      expect(await tokenOutcome(t(), sent)).toBe('InvalidToken');
      expect(await tokenOutcome(t(), again[0]!.token)).toBe('ok');
      expect(await t().testStore.store.db.selectFrom('install_claims').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    });

    it('gives the claim back when the install fails, and takes over a claim that lapsed (its process died)', async () => {
      const { listener, app, alice } = await scene({ status: 500 });
      expectError(await install(alice, app.id), 502, 'InstallFailed');
      listener.behaviour = 'sdk';
      const db = t().testStore.store.db;
      const claim = { app_id: app.id, user_id: alice.user.id, claim: 'of a process that died' };
      await db.insertInto('install_claims').values({ ...claim, expires_at: Date.now() + 60_000 }).execute();
      expectError(await install(alice, app.id), 409, 'InstallInProgress');
      await db.updateTable('install_claims').set({ expires_at: Date.now() - 1 }).where('app_id', '=', app.id).execute();
      expect((await install(alice, app.id)).status).toBe(200);
      expect(await db.selectFrom('install_claims').selectAll().where('app_id', '=', app.id).execute()).toEqual([]);
    });

    it('installs only apps of the person’s own team', async () => {
      const { app } = await scene();
      const stranger = await signedInPerson(t(), (await t().f.team()).id);
      expectError(await install(stranger, app.id), 404, 'UnknownApp');
      expectError(await install(stranger, 'a:nosuchapp'), 404, 'UnknownApp');
      expectError(await stranger.request('POST', '/v1/apps.uninstall', { appId: app.id }), 404, 'UnknownApp');
    });

    it('uninstall revokes the token at once and sends app.uninstall through the outbox', async () => {
      const { listener, app, alice } = await scene();
      expect((await install(alice, app.id)).body).toEqual({ installed: true });
      const token = ((await listener.waitForVerified(1))[0].event as { token: string }).token;
      const answer = await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      expect(answer.body).toEqual({ installed: false });
      expect(await tokenOutcome(t(), token)).toBe('InvalidToken');
      const [, uninstall] = await listener.waitForVerified(2);
      expect(uninstall.event).toEqual({ name: 'app.uninstall', userId: alice.user.id });
      expect(uninstall.claims).toMatchObject({ appId: app.id, userId: alice.user.id });
      expectError(await alice.request('POST', '/v1/apps.uninstall', { appId: app.id }), 409, 'NotInstalled');
    });

    it('disabling by the person, then by a team admin, gives AppDisabled; enabling restores the token', async () => {
      const { team, listener, app, alice } = await scene();
      await install(alice, app.id);
      const token = ((await listener.waitForVerified(1))[0].event as { token: string }).token;
      const change = (who: typeof alice, method: string) => who.request('POST', `/v1/apps.${method}`, { appId: app.id });

      expect((await change(alice, 'disable')).body).toEqual({ disabledByUser: true });
      expect(await tokenOutcome(t(), token)).toBe('AppDisabled:user');
      expect((await alice.request('POST', '/v1/apps.listDirectory', {})).body.apps[0]).toMatchObject({ installed: true, disabledByUser: true });
      expect((await change(alice, 'enable')).body).toEqual({ disabledByUser: false });
      expect(await tokenOutcome(t(), token)).toBe('ok');

      expectError(await change(alice, 'disableForTeam'), 403, 'PermissionDenied');
      expect(await tokenOutcome(t(), token)).toBe('ok');
      const admin = await signedInPerson(t(), team.id, 'admin');
      expect((await change(admin, 'disableForTeam')).body).toEqual({ disabledByTeam: true });
      expect(await tokenOutcome(t(), token)).toBe('AppDisabled:team');
      expect((await alice.request('POST', '/v1/apps.listDirectory', {})).body.apps[0]).toMatchObject({ disabledByTeam: true });
      expect((await change(admin, 'enableForTeam')).body).toEqual({ disabledByTeam: false });
      expect(await tokenOutcome(t(), token)).toBe('ok');

      const bob = await signedInPerson(t(), team.id);
      expectError(await change(bob, 'disable'), 409, 'NotInstalled');
      const outsideAdmin = await signedInPerson(t(), (await t().f.team()).id, 'admin');
      expectError(await change(outsideAdmin, 'disableForTeam'), 404, 'UnknownApp');
    });

    it('lists the team’s apps with the person’s state and only the public parts of integrations', async () => {
      const integrations = {
        slashCommands: [{ name: 'todo', description: 'Add a to-do', action: { type: 'openWidget', url: 'https://todo.example/w' } }],
        launcherButton: { name: 'To-do', icon: 'https://todo.example/i.png', action: { type: 'openWidget', url: 'https://todo.example/l' } },
        messageAction: { name: 'Remember', action: { type: 'sendEvent' } },
        previewDomains: ['todo.example'],
      };
      const { app, alice } = await scene('sdk', integrations);
      await install(alice, app.id);
      const { apps } = (await alice.request('POST', '/v1/apps.listDirectory', {})).body;
      expect(apps).toEqual([
        {
          id: app.id,
          name: 'Helper',
          description: '',
          installable: true,
          installed: true,
          disabledByUser: false,
          disabledByTeam: false,
          integrations: {
            slashCommands: [{ name: 'todo', description: 'Add a to-do' }],
            launcherButton: { name: 'To-do', icon: 'https://todo.example/i.png' },
            messageAction: { name: 'Remember' },
          },
        },
      ]);
      expect(JSON.stringify(apps)).not.toMatch(/au_|secret|hash/);
    });
  },
  { installTimeoutMs },
);
