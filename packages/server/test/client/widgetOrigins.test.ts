import { verifyWidgetRequest } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { allowOrigins } from '../helpers/origins.js';
import { forEachDialect, type CallResult, type TestServer } from '../helpers/server.js';
import { closeSdkApps, expectError, sessionFor, startSdkApp } from './harness.js';

afterAll(closeSdkApps);

const attacker = 'https://attacker.example';

/**
 * Alice's app, installed by her, with a bot, whose developer registered: its listener (loopback), a
 * configuration URL on https://config.example.test, a slash command opening https://commands.example.test,
 * and the allowed origin https://widgets.example.test. Nothing else.
 */
async function originCast(t: TestServer) {
  const team = await t.f.team();
  const alice = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bob = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const integrations = { slashCommands: [{ name: 'board', action: { type: 'openWidget', url: 'https://commands.example.test/board' } }] };
  const sdkApp = await startSdkApp(t, { teamId: team.id, developerId: alice.id, integrations });
  const db = t.testStore.store.db;
  await db.updateTable('apps').set({ configuration_url: 'https://config.example.test/settings' }).where('id', '=', sdkApp.app.id).execute();
  await allowOrigins(db, sdkApp.app.id, ['https://widgets.example.test']);
  await t.f.install(sdkApp.app.id, alice.id);
  const bot = await t.f.bot(sdkApp.app.id);
  await createChannel(t.server.ctx, { user: alice, appId: null }, { name: 'general', members: [bob.id] });
  return { app: sdkApp.app, bot, alice: await sessionFor(t, alice), bob: await sessionFor(t, bob) };
}

function expectOriginRefused(result: CallResult, origin: string, parameter?: string): void {
  expectError(result, { status: 400, error: 'OriginNotAllowed', parameter, description: /allowed origins/ });
  expect(result.body.origin).toBe(origin);
  if (parameter === undefined) expect(result.body).not.toHaveProperty('parameter');
}

forEachDialect('client API: app tokens only go to origins the app’s developer registered', (t) => {
  it('refuses a widget’s openWidget / openBrowser to another origin, naming the url field', async () => {
    const { app, alice, bob } = await originCast(t());
    const base = { appId: app.id, url: `${attacker}/collect`, chat: bob.user.id };
    expectOriginRefused(await alice.call('interactions.runWidgetAction', { ...base, kind: 'openWidget' }), attacker, 'url');
    expectOriginRefused(await alice.call('interactions.runWidgetAction', { ...base, kind: 'openBrowser', sendContext: true }), attacker, 'url');
    expectOriginRefused(await alice.call('interactions.runWidgetAction', { ...base, kind: 'openBrowser' }), attacker, 'url');
    // The port is part of the origin.
    const otherPort = await alice.call('interactions.runWidgetAction', { ...base, kind: 'openWidget', url: 'https://widgets.example.test:8443/x' });
    expectOriginRefused(otherPort, 'https://widgets.example.test:8443', 'url');
  });

  it('accepts every registered origin: listener, configuration URL, integrations and allowed origins', async () => {
    const { app, alice, bob } = await originCast(t());
    const listenerOrigin = new URL(app.listener_url!).origin;
    for (const url of [
      `${listenerOrigin}/widget`,
      'https://config.example.test/other-page',
      'https://commands.example.test/elsewhere',
      'https://WIDGETS.example.test:443/next',
    ]) {
      const opened = await alice.call('interactions.runWidgetAction', { appId: app.id, kind: 'openWidget', url, chat: bob.user.id });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      await expect(verifyWidgetRequest(opened.body.url, { appId: app.id, appSecret: app.secret })).resolves.toMatchObject({ claims: { route: 'widget' } });
    }
    const browser = await alice.call('interactions.runWidgetAction', { appId: app.id, kind: 'openBrowser', url: 'https://widgets.example.test/full', chat: bob.user.id });
    expect(browser.body).toEqual({ kind: 'openBrowser', url: 'https://widgets.example.test/full' });
  });

  it('refuses a ServiceML <action> that opens another origin, whatever its type', async () => {
    const { alice, bot } = await originCast(t());
    const serviceml =
      `<serviceml><action id="widget" type="openWidget" url="${attacker}/w">W</action> ` +
      `<action id="tab" type="openBrowser" url="${attacker}/t" sendContext="true">T</action> ` +
      `<action id="bare" type="openBrowser" url="${attacker}/b">B</action> ` +
      '<action id="fine" type="openWidget" url="https://widgets.example.test/w">F</action></serviceml>';
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'actions', serviceml });
    for (const actionId of ['widget', 'tab', 'bare']) {
      expectOriginRefused(await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId }), attacker);
    }
    expect((await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'fine' })).body).toMatchObject({ kind: 'openWidget' });
  });

  it('refuses an attachment widget on another origin', async () => {
    const { alice, bot } = await originCast(t());
    const send = (id: string, src: string) =>
      t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'chart', attachments: [{ id, title: 'Chart', views: { widget: { src } } }] });
    const evil = await send('evil', `${attacker}/chart`);
    const good = await send('good', 'https://widgets.example.test/chart');
    expectOriginRefused(await alice.call('interactions.openAttachmentWidget', { messageUid: evil.uid, attachmentId: 'evil' }), attacker);
    expect((await alice.call('interactions.openAttachmentWidget', { messageUid: good.uid, attachmentId: 'good' })).body).toMatchObject({ kind: 'attachmentWidget' });
  });
});
