import { afterAll, expect, it } from 'vitest';
import { updateApp } from '../../src/core/commands/apps.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { closeSdkApps, http, sessionFor } from '../client/harness.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * Event subscriptions (docs/reference/event-subscriptions.md): an app receives only the events it chose,
 * through every route an event takes (the outbox, synchronous delivery, widget URLs); an app that never
 * chose receives what every app received before.
 */
const listeners: TestListener[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await closeSdkApps();
});

async function subscribedCast(t: TestServer, eventSubscriptions: string[] | null) {
  const team = await t.f.team();
  const aliceRow = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bobRow = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const listener = await startListener();
  listeners.push(listener);
  const origin = new URL(listener.url).origin;
  const integrations = {
    slashCommands: [{ name: 'note', action: { type: 'sendEvent' } }],
    launcherButton: { name: 'Notes', action: { type: 'openWidget', url: `${origin}/widget`, desktopType: 'sidebar' } },
    previewDomains: ['notes.example.test'],
  };
  const app = await t.f.app(team.id, aliceRow.id, { listenerUrl: listener.url, integrations, eventSubscriptions });
  const bot = await t.f.bot(app.id);
  const { channel } = await createChannel(t.server.ctx, { user: aliceRow, appId: null }, { name: `notes-${app.id.slice(2, 8)}`, members: [bobRow.id] });
  return { app, bot, channel, listener, alice: await sessionFor(t, aliceRow), bob: await sessionFor(t, bobRow) };
}

/** Everything a person can set off, one of each kind of event; resolves with what each action answered. */
async function setEverythingOff(t: TestServer, cast: Awaited<ReturnType<typeof subscribedCast>>) {
  const { app, bot, channel, alice } = cast;
  const installed = await alice.call('apps.install', { appId: app.id });
  const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/note buy milk' });
  const launcher = await alice.call('interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id });
  await alice.call('chat.sendFromComposer', { to: channel.id, text: 'see https://notes.example.test/1' });
  await alice.call('chat.sendFromComposer', { to: bot.botUserId, text: 'hello bot' });
  await alice.call('apps.uninstall', { appId: app.id });
  await t.server.ctx.background.settled();
  await t.server.ctx.events.idle();
  return { installed, command, launcher };
}

forEachDialect('event subscriptions', (t) => {
  it('an app that never chose receives every event of the specification, as before', async () => {
    const cast = await subscribedCast(t(), null);
    const { launcher } = await setEverythingOff(t(), cast);
    await cast.listener.waitFor(5);
    expect(cast.listener.received.map((request) => request.body.name).sort()).toEqual(
      ['app.install', 'app.uninstall', 'chat.generateUrlPreview', 'chat.receiveMessage', 'client.slashCommand'],
    );
    expect(new URL(launcher.body.url).searchParams.get('serviceEvent')).toContain('"client.pressButton"');
  });

  it('an app receives only what it subscribed to, by whatever route the event would take', async () => {
    const cast = await subscribedCast(t(), ['client.slashCommand', 'app.uninstall']);
    const { installed, command, launcher } = await setEverythingOff(t(), cast);
    // Installed without being asked: it did not subscribe to app.install.
    expect(installed.status).toBe(200);
    expect(command.body.answer).toEqual({ kind: 'none' });
    // Its launcher's page opens without the event it did not subscribe to.
    expect(launcher.body).toEqual({ kind: 'openWidget', url: `${new URL(cast.listener.url).origin}/widget`, desktopType: 'sidebar', mobileType: 'modal' });
    await cast.listener.waitFor(2);
    expect(cast.listener.received.map((request) => request.body.name)).toEqual(['client.slashCommand', 'app.uninstall']);
    const stored = await t().testStore.store.db.selectFrom('events').select('name').where('app_id', '=', cast.app.id).orderBy('id').execute();
    expect(stored.map((event) => event.name)).toEqual(['client.slashCommand', 'app.uninstall']);
  });

  it('an app that subscribed to nothing hears nothing, and a slash command of it answers nothing', async () => {
    const cast = await subscribedCast(t(), []);
    const { installed, command } = await setEverythingOff(t(), cast);
    expect(installed.status).toBe(200);
    expect(command.body.answer).toEqual({ kind: 'none' });
    expect(cast.listener.received).toEqual([]);
    expect(await t().testStore.store.db.selectFrom('events').select('id').where('app_id', '=', cast.app.id).execute()).toEqual([]);
  });

  it('apps.update takes the list by name, in one order, refuses an unknown event by its place, and null means the defaults again', async () => {
    const { app, alice } = await subscribedCast(t(), null);
    const patch = (json: object) => http(t().url, 'POST', '/v1/apps.update', { json: { appId: app.id, ...json }, headers: { authorization: `Bearer ${alice.sessionToken}` } });
    expect((await patch({})).body.app.eventSubscriptions).toBeNull();
    const chosen = await patch({ eventSubscriptions: ['client.slashCommand', 'app.install', 'client.slashCommand'] });
    expect(chosen.body.app.eventSubscriptions).toEqual(['app.install', 'client.slashCommand']);
    const refused = await patch({ eventSubscriptions: ['app.install', 'message.sent'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'InvalidParameter', parameter: 'eventSubscriptions[1]' });
    expect(refused.body.description).toContain('"message.sent"');
    expect((await patch({ eventSubscriptions: null })).body.app.eventSubscriptions).toBeNull();
    await updateApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id, eventSubscriptions: [] });
    expect((await patch({})).body.app.eventSubscriptions).toEqual([]);
  });
});
