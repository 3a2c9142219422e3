import { verifyWidgetRequest } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { setAppDisabledForTeam, setInstallDisabled, updateApp } from '../../src/core/commands/apps.js';
import type { CallResult } from '../helpers/server.js';
import { forEachDialect } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError, type SignedIn } from './harness.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterAll(closeSdkApps);

/** A bot message whose attachment has a widget view, an openWidget and a sendEvent button, and ServiceML actions of each type. */
const offer = {
  text: 'Deploy #7?',
  serviceml:
    '<serviceml><action id="ask" type="sendEvent">Ask</action> <action id="open" type="openWidget" url="https://widgets.example.test/deploy">Open</action> ' +
    '<action id="web" type="openBrowser" url="https://example.test/deploy">Web</action></serviceml>',
  attachments: [
    {
      id: 'deploy-7',
      title: 'Deploy #7',
      views: { widget: { src: 'https://widgets.example.test/card' } },
      buttons: [
        { id: 'approve', name: 'Approve', action: { type: 'sendEvent' } },
        { id: 'details', name: 'Details', action: { type: 'openWidget', url: 'https://widgets.example.test/details' } },
      ],
    },
  ],
};

forEachDialect('client API: widget and browser URLs only for people who may use the app', (t) => {
  /** Alice installed the app, Bob (in the channel) did not; the bot posted `offer` in the channel on Alice's behalf. */
  async function castWithOffer() {
    const cast = await clientCast(t());
    // The app registers where its widgets live, so that only who opens them decides the answer.
    await updateApp(storeContext(t().testStore.store.db), cliActor, { appId: cast.app.id, allowedOrigins: ['https://widgets.example.test', 'https://example.test'] });
    const { uid } = await t().client(cast.bot.botToken).chat.sendMessage({ to: cast.channel.id, onBehalfOf: cast.alice.user.id, ...offer });
    const opens = (who: SignedIn): Array<[string, () => Promise<CallResult>]> => [
      ['widgetAction from the chat', () => who.call('interactions.runWidgetAction', { appId: cast.app.id, kind: 'openWidget', url: 'https://widgets.example.test/next', chat: cast.channel.id })],
      ['widgetAction from the attachment', () => who.call('interactions.runWidgetAction', { appId: cast.app.id, kind: 'openBrowser', url: 'https://example.test/x', sendContext: true, messageUid: uid, attachmentId: 'deploy-7' })],
      ['openAttachmentWidget', () => who.call('interactions.openAttachmentWidget', { messageUid: uid, attachmentId: 'deploy-7' })],
      ['an openWidget button', () => who.call('interactions.pressButton', { messageUid: uid, attachmentId: 'deploy-7', buttonId: 'details' })],
      ['an openWidget <action>', () => who.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'open' })],
      ['an openBrowser <action>', () => who.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'web' })],
    ];
    return { ...cast, uid, opens };
  }

  it('refuses every widget or browser URL to a person who never installed the app, and signs nothing for them', async () => {
    const { bob, alice, app, sdkApp, opens } = await castWithOffer();
    for (const [what, open] of opens(bob)) {
      const answer = await open();
      expect(answer.body, what).toMatchObject({ error: 'NotInstalled', description: expect.stringMatching(/You have not installed .*install it/) });
      expect(answer.status, what).toBe(409);
      expect(JSON.stringify(answer.body), what).not.toMatch(/serviceEventToken/);
    }
    // The person who installed it gets each URL, its token made for them.
    for (const [what, open] of opens(alice)) {
      const answer = await open();
      expect(answer.status, what).toBe(200);
      if (answer.body.url.includes('serviceEventToken')) {
        expect((await verifyWidgetRequest(answer.body.url, { appId: app.id, appSecret: app.secret })).event.userId, what).toBe(alice.user.id);
      }
    }
    expect(sdkApp.received).toEqual([]);
  });

  it('still sends a bot message’s plain events to the listener for someone who did not install the app', async () => {
    const { bob, uid, sdkApp } = await castWithOffer();
    sdkApp.answer = () => ({ text: 'Noted' });
    expect((await bob.call('interactions.pressButton', { messageUid: uid, attachmentId: 'deploy-7', buttonId: 'approve' })).body).toEqual({ kind: 'toast', text: 'Noted' });
    expect((await bob.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'ask' })).body).toEqual({ kind: 'toast', text: 'Noted' });
    expect((await sdkApp.waitFor(2)).map(({ claims }) => claims.userId)).toEqual([bob.user.id, bob.user.id]);
  });

  it('refuses them while the person or a team admin has the app disabled', async () => {
    const { alice, app, opens } = await castWithOffer();
    const db = t().testStore.store.db;
    await setInstallDisabled(storeContext(db), { id: alice.user.id }, { appId: app.id, disabled: true });
    for (const [what, open] of opens(alice)) expect((await open()).body, what).toMatchObject({ error: 'AppDisabled', disabledBy: 'user' });
    await setInstallDisabled(storeContext(db), { id: alice.user.id }, { appId: app.id, disabled: false });
    await setAppDisabledForTeam(storeContext(db), cliActor, { appId: app.id, disabled: true });
    for (const [what, open] of opens(alice)) {
      const answer = await open();
      expect([answer.status, answer.body.error, answer.body.disabledBy], what).toEqual([403, 'AppDisabled', 'team']);
    }
  });

  it('makes a widget URL only for a chat or message the person can see', async () => {
    const { alice, app, uid, person } = await castWithOffer();
    const eve = await person('Eve');
    await t().f.install(app.id, eve.user.id);
    const elsewhere = (await clientCast(t())).channel.id;
    const widget = { appId: app.id, kind: 'openWidget', url: 'https://widgets.example.test/next' };
    expectError(await alice.call('interactions.runWidgetAction', { ...widget, chat: elsewhere }), { error: 'UnknownChat', parameter: 'chat' });
    // Eve installed the app but is not in the private channel: its message does not exist for her.
    expectError(await eve.call('interactions.runWidgetAction', { ...widget, messageUid: uid, attachmentId: 'deploy-7' }), { error: 'InvalidParameter', parameter: 'messageUid' });
    expectError(await eve.call('interactions.openAttachmentWidget', { messageUid: uid, attachmentId: 'deploy-7' }), { error: 'InvalidParameter', parameter: 'messageUid' });
    expectError(await eve.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'open' }), { error: 'InvalidParameter', parameter: 'messageUid' });
  });
});
