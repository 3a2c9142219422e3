import { afterAll, expect, it } from 'vitest';
import { updateApp } from '../../src/core/commands/apps.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * Flock-compatible naming (docs/flock-compatibility.md) at the method API: an app that has it may call
 * with Flock's names, and a refusal names what it gave; every other app's calls are as before.
 */
const listeners: TestListener[] = [];
afterAll(() => Promise.all(listeners.map((listener) => listener.close())));

async function cast(t: TestServer, flockNaming: boolean) {
  const { app, people } = await teamWithApp(t.testStore.store.db, 2);
  if (flockNaming) await updateApp(storeContext(t.testStore.store.db), cliActor, { appId: app.id, flockNaming });
  const [alice, bob] = people;
  const { channel } = await createChannel(t.server.ctx, { user: alice, appId: null }, { name: `flock-${app.id.slice(2, 8)}`, members: [bob.id] });
  const send = (form: Record<string, string>) => t.call('chat.sendMessage', { form: { token: alice.token, to: bob.id, text: 'fallback', ...form } });
  const stored = async (uid: string) => (await t.client(alice.token).chat.fetchMessages({ chat: bob.id, uids: [uid] }))[0];
  return { app, alice, bob, channel, send, stored };
}

forEachDialect('Flock-compatible naming: methods', (t) => {
  it('takes flockml, and views.flockml in attachments, as ServiceML', async () => {
    const { alice, bob, send, stored } = await cast(t(), true);
    const sent = await send({ flockml: '<flockml>Build <b>passed</b></flockml>' });
    expect(sent.status).toBe(200);
    expect((await stored(sent.body.uid)).serviceml).toBe('<serviceml>Build <b>passed</b></serviceml>');

    const attachments = JSON.stringify([{ id: 'a', views: { flockml: '<flockml><i>green</i></flockml>' } }]);
    const withView = await send({ attachments });
    expect(withView.status).toBe(200);
    expect((await stored(withView.body.uid)).attachments).toEqual([{ id: 'a', appId: expect.any(String), views: { serviceml: '<serviceml><i>green</i></serviceml>' } }]);

    // The same in a JSON body, where the list is a list.
    const json = { token: alice.token, to: bob.id, text: 'fallback', flockml: '<flockml>json</flockml>', attachments: [{ views: { flockml: '<flockml>j</flockml>' } }] };
    const sentAsJson = await t().call('chat.sendMessage', { json });
    expect(sentAsJson.status).toBe(200);
    expect(await stored(sentAsJson.body.uid)).toMatchObject({ serviceml: '<serviceml>json</serviceml>', attachments: [{ views: { serviceml: '<serviceml>j</serviceml>' } }] });
  });

  it('names flockml in a refusal of what was given as flockml', async () => {
    const { send } = await cast(t(), true);
    const invalid = await send({ flockml: '<flockml><blink>x</blink></flockml>' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: 'InvalidParameter', parameter: 'flockml' });
    expect(invalid.body.description).toMatch(/^flockml is not valid FlockML: .*<blink>/);
    // A root left open is said to be open, under its own name (it read "must start with <flockml>; found <flockml>").
    const unclosed = await send({ flockml: '<flockml>x' });
    expect(unclosed.body).toMatchObject({ error: 'InvalidParameter', parameter: 'flockml', description: expect.stringContaining('<flockml> is never closed; add </flockml>') });

    expect((await send({ flockml: '<flockml>a</flockml>', serviceml: '<serviceml>b</serviceml>' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'flockml' });
    const both = JSON.stringify([{ views: { flockml: '<flockml>a</flockml>', serviceml: '<serviceml>b</serviceml>' } }]);
    expect((await send({ attachments: both })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'attachments[0].views.flockml' });
    const badView = JSON.stringify([{ views: { flockml: '<flockml><script>x</script></flockml>' } }]);
    expect((await send({ attachments: badView })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'attachments[0].views.flockml' });
  });

  it('answers groups.list, groups.getInfo and groups.getMembers as channels.list, channels.getInfo and channels.listMembers', async () => {
    const { alice, channel } = await cast(t(), true);
    const call = async (method: string, form: Record<string, string> = {}) => (await t().call(method, { form: { token: alice.token, ...form } })).body;
    expect(await call('groups.list')).toEqual(await call('channels.list'));
    expect(await call('groups.getInfo', { groupId: channel.id })).toEqual(await call('channels.getInfo', { channelId: channel.id }));
    expect(await call('groups.getMembers', { groupId: channel.id, showPublicProfile: 'true' })).toEqual(await call('channels.listMembers', { channelId: channel.id, showPublicProfile: 'true' }));
    expect(await call('groups.getInfo')).toMatchObject({ error: 'MissingParameter', parameter: 'groupId' });
    expect(await call('groups.getInfo', { groupId: 'nope' })).toMatchObject({ error: 'InvalidParameter', parameter: 'groupId' });
  });

  it('leaves every other app as the specification names it: no groups.* methods, flockml not read', async () => {
    const { alice, channel, send, stored } = await cast(t(), false);
    const answer = await t().call('groups.getInfo', { form: { token: alice.token, groupId: channel.id } });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: 'NoSuchMethod' });
    expect(answer.body.description).toContain('Flock-compatible naming');
    expect((await t().call('groups.list', { form: { token: 'au_unknown' } })).body).toMatchObject({ error: 'InvalidToken' });
    const sent = await send({ flockml: '<flockml>ignored</flockml>' });
    expect(sent.status).toBe(200);
    expect((await stored(sent.body.uid)).serviceml).toBeUndefined();
  });

  it('gives a browser page opened with its context the event under both sets of names, with the same values, only with the setting', async () => {
    for (const flockNaming of [false, true]) {
      const { app, alice, channel } = await cast(t(), flockNaming);
      const integrations = { slashCommands: [{ name: 'open', action: { type: 'openBrowser', url: 'https://flock.example.test/page', sendContext: true } }] };
      await updateApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id, listenerUrl: 'https://flock.example.test/events', integrations });
      const opened = await (await sessionFor(t(), alice)).call('chat.sendFromComposer', { to: channel.id, text: '/open now' });
      const params = new URL(opened.body.answer.url).searchParams;
      const names = ['Event', 'EventToken', 'Client', 'WidgetType'];
      expect(names.map((name) => params.get(`service${name}`))).toEqual([expect.stringContaining('"client.slashCommand"'), expect.any(String), 'desktop', 'modal']);
      expect(names.map((name) => params.get(`flock${name}`))).toEqual(names.map((name) => (flockNaming ? params.get(`service${name}`) : null)));
    }
  });

  it('sends X-Flock-Event-Token beside X-Service-Event-Token only to an app that has the setting', async () => {
    for (const flockNaming of [false, true]) {
      const { app, bob } = await cast(t(), flockNaming);
      const listener = await startListener();
      listeners.push(listener);
      await updateApp(storeContext(t().testStore.store.db), cliActor, { appId: app.id, listenerUrl: listener.url });
      const bot = await t().f.bot(app.id);
      await t().call('chat.sendMessage', { form: { token: bob.token, to: bot.botUserId, text: 'hello bot' } });
      await t().server.ctx.events.idle();
      const [received] = await listener.waitFor(1);
      expect(received!.body.name).toBe('chat.receiveMessage');
      expect(received!.headers['x-flock-event-token']).toBe(flockNaming ? received!.headers['x-service-event-token'] : undefined);
    }
  });
});
