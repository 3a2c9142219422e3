import { verifyWidgetRequest } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { setAppDisabledForTeam, setInstallDisabled } from '../../src/core/commands/apps.js';
import { forEachDialect } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError } from './harness.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterAll(closeSdkApps);

const integrations = {
  launcherButton: { name: 'Launch', action: { type: 'sendEvent' } },
  chatTabButton: { name: 'Board', action: { type: 'openWidget', url: 'https://widgets.example.test/board', desktopType: 'sidebar' } },
  attachmentPickerButton: { name: 'Pick', action: { type: 'openBrowser', url: 'https://apps.example.test/pick', sendContext: true } },
};

/** A bot message to Alice with one attachment carrying a sendEvent button and an openWidget button. */
const approval = {
  text: 'Deploy #42?',
  attachments: [
    {
      id: 'deploy-42',
      title: 'Deploy #42',
      buttons: [
        { id: 'approve', name: 'Approve', action: { type: 'sendToApp' } },
        { id: 'details', name: 'Details', action: { type: 'openWidget', url: 'https://widgets.example.test/deploy' } },
      ],
    },
  ],
};

forEachDialect('client API: pressButton', (t) => {
  it('sends client.pressButton for the launcher button to the listener and answers its toast', async () => {
    const { alice, channel, sdkApp, app } = await clientCast(t(), integrations);
    sdkApp.answer = () => ({ text: 'Launched' });
    const result = await alice.call('interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id });
    expect(result.body).toEqual({ kind: 'toast', text: 'Launched' });
    const [{ event, claims }] = await sdkApp.waitFor(1);
    expect(event).toEqual({
      name: 'client.pressButton',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: channel.id,
      chatName: 'general',
      button: 'appLauncherButton',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });
    expect(claims).toMatchObject({ appId: app.id, userId: alice.user.id });
  });

  it('opens the chat-tab widget and the attachment-picker page with the event in verified URLs', async () => {
    const { alice, bob, sdkApp, app } = await clientCast(t(), integrations);
    const tab = await alice.call('interactions.pressButton', { appId: app.id, button: 'chatTabButton', chat: bob.user.id, client: 'android' });
    expect(tab.body).toMatchObject({ kind: 'openWidget', desktopType: 'sidebar', mobileType: 'modal' });
    const widget = await verifyWidgetRequest(tab.body.url, { appId: app.id, appSecret: app.secret });
    expect(widget).toMatchObject({ client: 'android', widgetType: 'modal' });
    const common = { userId: alice.user.id, userName: 'Alice Archer', chat: bob.user.id, chatName: 'Bob Baker' };
    expect(widget.event).toEqual({ name: 'client.pressButton', ...common, button: 'chatTabButton' });

    const picker = await alice.call('interactions.pressButton', { appId: app.id, button: 'attachmentPickerButton', chat: bob.user.id });
    expect(picker.body).toEqual({ kind: 'openBrowser', url: expect.stringMatching(/^https:\/\/apps\.example\.test\/pick\?serviceEvent=/) });
    const browser = await verifyWidgetRequest(picker.body.url, { appId: app.id, appSecret: app.secret });
    expect(browser).toMatchObject({ client: 'desktop', widgetType: 'modal', event: { ...common, button: 'attachmentPickerButton' } });
    expect(sdkApp.received).toEqual([]);
  });

  it('needs the app installed, enabled and having the button, and a chat the person reads', async () => {
    const { alice, bob, channel, app } = await clientCast(t(), { launcherButton: integrations.launcherButton });
    const press = (who: typeof alice, fields: Record<string, unknown>) =>
      who.call('interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id, ...fields });
    expectError(await press(bob, {}), { error: 'InvalidParameter', parameter: 'appId', description: /not installed/ });
    expectError(await press(alice, { appId: 'a:nosuchapp' }), { error: 'InvalidParameter', parameter: 'appId' });
    expectError(await press(alice, { button: 'chatTabButton' }), { error: 'InvalidParameter', parameter: 'button', description: /no chatTabButton/ });
    expectError(await press(alice, { button: 'bigRedButton' }), { error: 'InvalidParameter', parameter: 'button' });
    expectError(await press(alice, { chat: undefined }), { error: 'MissingParameter', parameter: 'chat' });
    expectError(await press(alice, { chat: (await clientCast(t())).channel.id }), { error: 'UnknownChat', parameter: 'chat' });

    const db = t().testStore.store.db;
    await setInstallDisabled(storeContext(db), { id: alice.user.id }, { appId: app.id, disabled: true });
    expect((await press(alice, {})).body).toMatchObject({ error: 'AppDisabled', disabledBy: 'user' });
    await setInstallDisabled(storeContext(db), { id: alice.user.id }, { appId: app.id, disabled: false });
    await setAppDisabledForTeam(storeContext(db), cliActor, { appId: app.id, disabled: true });
    const disabled = await press(alice, {});
    expect([disabled.status, disabled.body.disabledBy]).toEqual([403, 'team']);
  });

  it('sends an attachment button’s press with its message, attachment and button ids; anyone who sees the message may press', async () => {
    const { alice, bob, channel, bot, sdkApp, app } = await clientCast(t());
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: channel.id, onBehalfOf: alice.user.id, ...approval });
    sdkApp.answer = () => ({ text: 'Approved' });
    // Bob never installed the app: its bot's buttons work for him all the same.
    const result = await bob.call('interactions.pressButton', { messageUid: uid, attachmentId: 'deploy-42', buttonId: 'approve' });
    expect(result.body).toEqual({ kind: 'toast', text: 'Approved' });
    const [{ event, claims }] = await sdkApp.waitFor(1);
    expect(event).toEqual({
      name: 'client.pressButton',
      userId: bob.user.id,
      userName: 'Bob Baker',
      chat: channel.id,
      chatName: 'general',
      button: 'attachmentButton',
      messageUid: uid,
      attachmentId: 'deploy-42',
      buttonId: 'approve',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });
    expect(claims).toMatchObject({ appId: app.id, userId: bob.user.id });

    const details = await alice.call('interactions.pressButton', { button: 'attachmentButton', messageUid: uid, attachmentId: 'deploy-42', buttonId: 'details' });
    expect(details.body).toMatchObject({ kind: 'openWidget', desktopType: 'modal' });
    const widget = await verifyWidgetRequest(details.body.url, { appId: app.id, appSecret: app.secret });
    expect(widget.event).toMatchObject({ button: 'attachmentButton', buttonId: 'details', userId: alice.user.id });
  });

  it('answers 400s naming the message, attachment or button it cannot find, and 502 for a failing listener', async () => {
    const { alice, bot, sdkApp, person } = await clientCast(t());
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, ...approval });
    const press = (who: typeof alice, fields: Record<string, unknown>) =>
      who.call('interactions.pressButton', { messageUid: uid, attachmentId: 'deploy-42', buttonId: 'approve', ...fields });
    // A teammate outside the direct chat cannot see the message, so for them it does not exist.
    expectError(await press(await person('Eve'), {}), { error: 'InvalidParameter', parameter: 'messageUid', description: /no message/ });
    expectError(await press(alice, { messageUid: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }), { error: 'InvalidParameter', parameter: 'messageUid' });
    expectError(await press(alice, { attachmentId: 'deploy-41' }), { error: 'InvalidParameter', parameter: 'attachmentId' });
    expectError(await press(alice, { buttonId: 'reject' }), { error: 'InvalidParameter', parameter: 'buttonId' });
    expectError(await press(alice, { buttonId: undefined }), { error: 'MissingParameter', parameter: 'buttonId' });

    await sdkApp.close();
    expectError(await press(alice, {}), { status: 502, error: 'AppUnreachable', description: /client\.pressButton/ });
  });
});
