import { verifyWidgetRequest } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { clientCast, closeSdkApps, expectError, startSdkApp } from './harness.js';

afterAll(closeSdkApps);

const messageAction = { name: 'Summarise', action: { type: 'sendEvent' } };

const choices =
  '<serviceml>Ship it? <action id="yes" type="sendEvent">Yes</action> ' +
  '<b><action id="web" type="openBrowser" url="https://example.test/ship">on the web</action></b></serviceml>';

const widgetAttachment = {
  id: 'chart',
  title: 'Chart',
  views: {
    widget: { src: 'https://widgets.example.test/chart', width: 400, height: 300 },
    serviceml: '<serviceml><action id="zoom" type="openWidget" url="https://widgets.example.test/zoom" desktopType="sidebar">Zoom</action></serviceml>',
  },
};

forEachDialect('client API: message, ServiceML, attachment widget and widget actions', (t) => {
  it('sends client.messageAction with the selected messages, and only their uids beyond 25', async () => {
    const { alice, bob, channel, sdkApp, app } = await clientCast(t(), { messageAction });
    const uids: string[] = [];
    for (let i = 0; i < 26; i++) uids.push((await bob.call('chat.sendFromComposer', { to: channel.id, text: `note ${i}` })).body.message.uid);
    const history = (await alice.call('chat.fetchMessages', { chat: channel.id, limit: 2 })).body;
    const picked = [uids[25], uids[24]];
    sdkApp.answer = () => ({ text: 'Summarised' });
    const result = await alice.call('interactions.runMessageAction', { appId: app.id, chat: channel.id, messageUids: picked });
    expect(result.body).toEqual({ kind: 'toast', text: 'Summarised' });
    await alice.call('interactions.runMessageAction', { appId: app.id, chat: channel.id, messageUids: uids });
    const [first, all] = await sdkApp.waitFor(2);
    const common = { userId: alice.user.id, userName: 'Alice Archer', chat: channel.id, chatName: 'general' };
    expect(first.event).toEqual({ name: 'client.messageAction', ...common, messageUids: picked, messages: history, responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/) });
    expect(all.event).toEqual({ name: 'client.messageAction', ...common, messageUids: uids, responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/) });
  });

  it('checks the selection: messages of the chat the person sees, an app with a message action', async () => {
    const { alice, bob, channel, app, sdkApp } = await clientCast(t(), { messageAction });
    const elsewhere = (await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'private' })).body.message.uid;
    const here = (await alice.call('chat.sendFromComposer', { to: channel.id, text: 'public' })).body.message.uid;
    const act = (fields: Record<string, unknown>) => alice.call('interactions.runMessageAction', { appId: app.id, chat: channel.id, messageUids: [here], ...fields });
    expectError(await act({ messageUids: [here, elsewhere] }), { error: 'InvalidParameter', parameter: 'messageUids', description: new RegExp(elsewhere) });
    expectError(await act({ messageUids: [] }), { error: 'MissingParameter', parameter: 'messageUids' });
    expectError(await act({ messageUids: here }), { error: 'InvalidParameter', parameter: 'messageUids' });
    expectError(await act({ messageUids: Array(101).fill(here) }), { error: 'InvalidParameter', parameter: 'messageUids' });
    const plain = await startSdkApp(t(), { teamId: alice.user.team_id, developerId: alice.user.id });
    await t().f.install(plain.app.id, alice.user.id);
    expectError(await act({ appId: plain.app.id }), { error: 'InvalidParameter', parameter: 'appId', description: /no message action/ });
    expect(sdkApp.received).toEqual([]);
  });

  it('keeps client.messageAction for the listener even when its action would open a widget', async () => {
    const { alice, channel, sdkApp, app } = await clientCast(t(), {
      messageAction: { name: 'Open', action: { type: 'openWidget', url: 'https://widgets.example.test/m' } },
    });
    const uid = (await alice.call('chat.sendFromComposer', { to: channel.id, text: 'hello' })).body.message.uid;
    expect((await alice.call('interactions.runMessageAction', { appId: app.id, chat: channel.id, messageUids: [uid] })).body).toEqual({ kind: 'none' });
    expect((await sdkApp.waitFor(1))[0].event).toMatchObject({ name: 'client.messageAction', messageUids: [uid] });
  });

  it('follows a ServiceML <action> of the message by its own type', async () => {
    const { alice, bot, sdkApp, app } = await clientCast(t());
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'Ship it?', serviceml: choices });
    const yes = await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'yes' });
    expect(yes.body).toEqual({ kind: 'none' });
    const [{ event }] = await sdkApp.waitFor(1);
    expect(event).toEqual({
      name: 'client.servicemlAction',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: bot.botUserId,
      chatName: `${app.name} Bot`,
      messageUid: uid,
      actionId: 'yes',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });
    // Without sendContext the browser gets the bare URL.
    expect((await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'web' })).body).toEqual({
      kind: 'openBrowser',
      url: 'https://example.test/ship',
    });
    expectError(await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'no' }), {
      error: 'InvalidParameter',
      parameter: 'actionId',
      description: /no <action> with the id "no"/,
    });
  });

  it('follows a ServiceML <action> of an attachment, with the attachment’s id in the event', async () => {
    const { alice, bot, app, sdkApp } = await clientCast(t());
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'chart', attachments: [widgetAttachment] });
    const result = await alice.call('interactions.runServicemlAction', { messageUid: uid, attachmentId: 'chart', actionId: 'zoom' });
    expect(result.body).toMatchObject({ kind: 'openWidget', desktopType: 'sidebar' });
    const widget = await verifyWidgetRequest(result.body.url, { appId: app.id, appSecret: app.secret });
    expect(widget.widgetType).toBe('sidebar');
    expect(widget.event).toMatchObject({ name: 'client.servicemlAction', messageUid: uid, attachmentId: 'chart', actionId: 'zoom' });
    expectError(await alice.call('interactions.runServicemlAction', { messageUid: uid, attachmentId: 'chart', actionId: 'yes' }), {
      error: 'InvalidParameter',
      parameter: 'actionId',
    });
    expect(sdkApp.received).toEqual([]);
  });

  it('refuses a ServiceML action of a person’s own message: no app stands behind it', async () => {
    const { alice, channel } = await clientCast(t());
    const uid = (await alice.call('chat.sendFromComposer', { to: channel.id, text: 'Ship it?', serviceml: choices })).body.message.uid;
    expectError(await alice.call('interactions.runServicemlAction', { messageUid: uid, actionId: 'yes' }), {
      error: 'InvalidParameter',
      parameter: 'messageUid',
      description: /not sent by an app/,
    });
  });

  it('gives the attachment widget’s URL, typed attachment, with client.openAttachmentWidget in it', async () => {
    const { alice, bot, app } = await clientCast(t());
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'chart', attachments: [widgetAttachment] });
    const result = await alice.call('interactions.openAttachmentWidget', { messageUid: uid, attachmentId: 'chart', client: 'ios' });
    expect(result.body).toEqual({ kind: 'attachmentWidget', url: expect.stringMatching(/^https:\/\/widgets\.example\.test\/chart\?/), width: 400, height: 300 });
    const widget = await verifyWidgetRequest(result.body.url, { appId: app.id, appSecret: app.secret });
    expect(widget).toMatchObject({ client: 'ios', widgetType: 'attachment' });
    expect(widget.event).toEqual({
      name: 'client.openAttachmentWidget',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: bot.botUserId,
      chatName: `${app.name} Bot`,
      messageUid: uid,
      attachmentId: 'chart',
    });
    const { uid: plain } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'x', attachments: [{ id: 'text-only', title: 'T' }] });
    expectError(await alice.call('interactions.openAttachmentWidget', { messageUid: plain, attachmentId: 'text-only' }), {
      error: 'InvalidParameter',
      parameter: 'attachmentId',
      description: /no widget view/,
    });
  });

  it('turns a widget’s Aviary.openWidget / openBrowser into client.widgetAction in the opened URL', async () => {
    const { alice, bob, bot, app } = await clientCast(t());
    const fromChat = await alice.call('interactions.runWidgetAction', {
      appId: app.id,
      kind: 'openWidget',
      url: 'https://widgets.example.test/next',
      desktopType: 'sidebar',
      chat: bob.user.id,
    });
    expect(fromChat.body).toMatchObject({ kind: 'openWidget', desktopType: 'sidebar', mobileType: 'modal' });
    const widget = await verifyWidgetRequest(fromChat.body.url, { appId: app.id, appSecret: app.secret });
    expect(widget.event).toEqual({ name: 'client.widgetAction', userId: alice.user.id, userName: 'Alice Archer', chat: bob.user.id, chatName: 'Bob Baker' });

    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'chart', attachments: [widgetAttachment] });
    const fromAttachment = { appId: app.id, kind: 'openBrowser', url: 'https://example.test/full', messageUid: uid, attachmentId: 'chart' };
    const browser = await alice.call('interactions.runWidgetAction', { ...fromAttachment, sendContext: true });
    const opened = await verifyWidgetRequest(browser.body.url, { appId: app.id, appSecret: app.secret });
    expect(opened.event).toEqual({
      name: 'client.widgetAction',
      userId: alice.user.id,
      userName: 'Alice Archer',
      chat: bot.botUserId,
      chatName: `${app.name} Bot`,
      messageUid: uid,
      attachmentId: 'chart',
    });
    expect((await alice.call('interactions.runWidgetAction', fromAttachment)).body).toEqual({ kind: 'openBrowser', url: 'https://example.test/full' });
  });

  it('checks a widget action’s URL, kind, chat and app', async () => {
    const { alice, bob, bot, app } = await clientCast(t());
    const other = await startSdkApp(t(), { teamId: alice.user.team_id, developerId: alice.user.id });
    const base = { appId: app.id, kind: 'openWidget', url: 'https://widgets.example.test/next', chat: bob.user.id };
    const act = (fields: Record<string, unknown>) => alice.call('interactions.runWidgetAction', { ...base, ...fields });
    expectError(await act({ url: 'javascript:alert(1)' }), { error: 'InvalidParameter', parameter: 'url' });
    expectError(await act({ kind: 'openTab' }), { error: 'InvalidParameter', parameter: 'kind' });
    expectError(await act({ desktopType: 'fullscreen' }), { error: 'InvalidParameter', parameter: 'desktopType' });
    expectError(await act({ sendContext: 'yes' }), { error: 'InvalidParameter', parameter: 'sendContext' });
    expectError(await act({ chat: undefined }), { error: 'MissingParameter', parameter: 'chat' });
    expectError(await act({ chat: undefined, attachmentId: 'chart' }), { error: 'MissingParameter', parameter: 'messageUid' });
    const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'chart', attachments: [widgetAttachment] });
    expectError(await act({ appId: other.app.id, messageUid: uid, attachmentId: 'chart' }), { error: 'InvalidParameter', parameter: 'appId' });
  });
},
// The first test posts 26 messages to one channel at once: more than a person's per-recipient burst.
{ rateLimits: { messagePerRecipient: { rate: 1, burst: 30 } } });
