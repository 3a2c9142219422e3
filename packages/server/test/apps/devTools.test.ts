import { afterAll, afterEach, expect, it } from 'vitest';
import { ListenClient } from '../../src/cli/listenClient.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect } from '../helpers/server.js';
import { expectError, refusingUrl, signedInPerson, startAppListener, type AppListener } from './harness.js';

/** The developer methods' tools for debugging an app: replaying every failed event, and sending a test event. */
const listeners: Array<AppListener | TestListener> = [];
const opened: ListenClient[] = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.stop();
});
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

forEachDialect(
  'developer methods: replay failed, test events',
  (t) => {
    async function scene(behaviour: AppListener['behaviour'] = 'sdk') {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const listener = await startAppListener(behaviour);
      listeners.push(listener);
      const { app } = (await dev.call('apps.create', { name: 'Debugged', listenerUrl: listener.url })).body;
      listener.useCredentials(app.id, app.secret);
      const alice = await signedInPerson(t(), team.id);
      return { team, dev, listener, app, alice };
    }

    it('replays every failed asynchronous event at once and says how many; nobody else may', async () => {
      const { team, dev, listener, app, alice } = await scene();
      const bob = await signedInPerson(t(), team.id);
      const carol = await signedInPerson(t(), team.id);
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await bob.request('POST', '/v1/apps.install', { appId: app.id });
      await listener.waitForVerified(2);
      listener.behaviour = { status: 400 };
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await bob.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await carol.request('POST', '/v1/apps.install', { appId: app.id });
      await t().server.ctx.events.idle();
      const failedNames = async () => (await dev.call('deliveries.list', { appId: app.id, status: 'failed' })).body.events.map((event: { name: string }) => event.name).sort();
      expect(await failedNames()).toEqual(['app.install', 'app.uninstall', 'app.uninstall']);

      const admin = await signedInPerson(t(), team.id, 'admin');
      expectError(await admin.call('deliveries.replayFailed', { appId: app.id }), 403, 'PermissionDenied');
      expectError(await alice.call('deliveries.replayFailed', { appId: app.id }), 404, 'UnknownApp');

      listener.behaviour = 'sdk';
      // The two uninstalls go again; the failed install (synchronous) stays failed.
      expect((await dev.call('deliveries.replayFailed', { appId: app.id })).body).toEqual({ replayed: 2 });
      const verified = await listener.waitForVerified(4);
      expect(verified.slice(2).map(({ event }) => event.name)).toEqual(['app.uninstall', 'app.uninstall']);
      await t().server.ctx.events.idle();
      expect(await failedNames()).toEqual(['app.install']);
      expect((await dev.call('deliveries.replayFailed', { appId: app.id })).body).toEqual({ replayed: 0 });
    });

    it('sends a signed example of any event to the listener and gives back its answer, recording nothing', async () => {
      const { dev, app } = await scene();
      const listener = await startListener(answerWithSdk);
      listeners.push(listener);
      listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => ({ text: 'Deploying the docs' }) as never });
      await dev.call('apps.update', { appId: app.id, listenerUrl: listener.url });
      const answer = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.slashCommand' })).body;
      expect(answer).toMatchObject({
        eventId: expect.stringMatching(/^ev_/),
        event: { name: 'client.slashCommand', userId: dev.user.id, userName: `${dev.user.first_name} ${dev.user.last_name}`, command: 'deploy' },
        via: 'listener',
        url: listener.url,
        status: 200,
        answer: JSON.stringify({ text: 'Deploying the docs' }),
        reason: null,
        detail: null,
      });
      // The SDK verified its token: signed with the app's secret, for this body, from this person.
      const [verified] = await listener.waitForVerified(1);
      expect(verified).toMatchObject({ eventId: answer.eventId, claims: { appId: app.id, userId: dev.user.id }, event: answer.event });

      for (const name of ['app.install', 'chat.generateUrlPreview'] as const) {
        expect((await dev.call('deliveries.sendTestEvent', { appId: app.id, name })).body).toMatchObject({ event: { name }, status: 200 });
      }
      // An attachment widget's event only ever goes to its widget URL, which the test names (on a registered origin).
      expectError(await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.openAttachmentWidget' }), 400, 'MissingParameter', 'url');
      expectError(await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.openAttachmentWidget', url: 'https://elsewhere.example/w' }), 400, 'OriginNotAllowed', 'url');
      const widget = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.openAttachmentWidget', url: `${new URL(listener.url).origin}/chart` })).body;
      expect(widget).toMatchObject({ event: { name: 'client.openAttachmentWidget' }, via: 'widget', url: expect.stringContaining('/chart?'), status: expect.any(Number) });
      // The home tab's test event goes to its widget, as opening it from the directory does.
      await dev.call('apps.setIntegrations', { appId: app.id, integrations: { slashCommands: [{ name: 'deploy', action: { type: 'sendEvent' } }], appHome: { url: `${new URL(listener.url).origin}/home` } } });
      const home = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.pressButton', button: 'appHome' })).body;
      expect(home).toMatchObject({ event: { name: 'client.pressButton', button: 'appHome' }, via: 'widget', url: expect.stringContaining('/home?') });
      expectError(await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.slashCommand', payload: { command: 'x' } }), 400, 'InvalidParameter', 'payload');
      expect((await dev.call('deliveries.list', { appId: app.id })).body.events).toEqual([]);
      expectError(await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'app.explode' }), 400, 'InvalidParameter', 'name');
      expectError(await dev.call('deliveries.sendTestEvent', { appId: app.id }), 400, 'MissingParameter', 'name');
    });

    it('says so when the listener refuses the connection, does not answer in time, or does not exist', async () => {
      const { dev, listener, app } = await scene('hang');
      const timedOut = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.pressButton' })).body;
      expect(timedOut).toMatchObject({ status: null, answer: null, reason: 'timeout', detail: expect.stringMatching(/within \d+ ms/) });
      expect(listener.requests).toHaveLength(1);

      const refusing = await refusingUrl();
      await dev.call('apps.update', { appId: app.id, listenerUrl: refusing });
      const refused = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'app.uninstall' })).body;
      expect(refused).toMatchObject({ via: 'listener', url: refusing, status: null, reason: 'connection_failed', detail: expect.any(String) });

      await dev.call('apps.update', { appId: app.id, listenerUrl: '' });
      const nowhere = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'app.uninstall' })).body;
      expect(nowhere).toMatchObject({ via: 'listener', url: null, status: null, reason: 'no_listener', detail: expect.stringMatching(/no listener URL/) });
    });

    it('goes through an open `aviary listen` connection instead of the listener URL', async () => {
      const { dev, listener, app } = await scene();
      const laptop = await startListener(answerWithSdk);
      listeners.push(laptop);
      laptop.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => ({ text: 'from the laptop' }) as never });
      const client = new ListenClient({ appId: app.id, server: t().url, credential: app.secret, forwardTo: laptop.url, print: () => undefined });
      opened.push(client);
      await client.connected;
      const answer = (await dev.call('deliveries.sendTestEvent', { appId: app.id, name: 'client.messageAction' })).body;
      expect(answer).toMatchObject({ via: 'listen', url: null, status: 200, answer: JSON.stringify({ text: 'from the laptop' }) });
      await laptop.waitForVerified(1);
      expect(listener.requests).toEqual([]);
    });
  },
  {},
  { events: { pollIntervalMs: 50, answerTimeoutMs: 1000 } },
);
