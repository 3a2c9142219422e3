import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ListenClient } from '../../../server/src/cli/listenClient.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { startListener } from '../../../server/test/helpers/listener.js';
import { signInPage, writeHistory } from './cast.js';
import { startWidgetApp, type WidgetApp, type WidgetVisit } from './widgetApp.js';
import { webSuite } from './suite.js';

/**
 * The ten events a person causes, each from the real page in Chromium, each reaching a real app built
 * with @aviary/sdk on loopback (widgetApp.ts): the event as the SDK verified it, and what its answer
 * shows in the page — a toast, a modal or sidebar widget whose own server verified its URL with the
 * SDK (read inside the frame), an inline attachment widget, a browser tab, a preview attached live.
 */
let relay: WidgetApp;
let botId: string;
let botToken: string;

const web = webSuite({
  start: async () => {
    relay = await startWidgetApp(web.t, {
      teamId: web.cast.team.id,
      developerId: web.cast.alice.id,
      name: 'Relay',
      integrations: (origin: string) => ({
        slashCommands: [
          { name: 'status', description: 'How the deploys are going', action: { type: 'sendEvent' } },
          { name: 'board', description: 'The deploy board', action: { type: 'openWidget', url: `${origin}/widget/board` } },
        ],
        launcherButton: { name: 'Relay home', action: { type: 'openWidget', url: `${origin}/widget/launcher`, desktopType: 'sidebar' } },
        chatTabButton: { name: 'Relay status', action: { type: 'sendEvent' } },
        attachmentPickerButton: { name: 'Attach a deploy', action: { type: 'openWidget', url: `${origin}/widget/picker` } },
        messageAction: { name: 'File as ticket', action: { type: 'sendEvent' } },
        previewDomains: ['tickets.example.test'],
      }),
    });
    relay.answer = answerFor;
    ({ botUserId: botId, botToken } = await web.t.f.bot(relay.app.id));
  },
  close: async () => relay?.close(),
});

/** The app's answers: a toast naming what it got, an attachment for a ticket link. */
function answerFor(event: { name: string; [field: string]: unknown }): unknown {
  switch (event.name) {
    case 'client.slashCommand':
      return { text: `Relay: /${event.command} ${event.text}` };
    case 'client.pressButton':
      return { text: `Relay: ${event.button}${event.buttonId ? ` ${event.buttonId}` : ''}` };
    case 'client.messageAction':
      return { text: `Relay filed ${(event.messageUids as string[]).length} message(s)` };
    case 'client.servicemlAction':
      return { text: `Relay: action ${event.actionId}` };
    case 'chat.generateUrlPreview':
      return { title: 'Ticket 7: the build is red', description: 'Opened by Bob', color: '#c92a2a' };
    default:
      return undefined;
  }
}

const signInAsBob = () => signInPage(web.browser, web.t, web.cast.bob.email!);

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const toast = (page: Page, text: string) => page.getByRole('status').getByText(text).waitFor();

/** The common attributes of every client.* event, for Bob in `chat`. */
const bobIn = (chat: string, chatName: string) => ({ userId: web.cast.bob.id, userName: 'Bob Baker', chat, chatName });

/** The page's own verdict, read inside the widget's frame, and the visit its server recorded. */
async function verifiedIn(frame: Frame | null, path: string): Promise<WidgetVisit> {
  const visit = await relay.waitForVisit(path);
  expect(visit, JSON.stringify(visit)).toMatchObject({ verified: true, client: 'desktop', claims: { appId: relay.app.id, userId: web.cast.bob.id } });
  expect(frame).not.toBeNull();
  await frame!.getByText(`Verified: ${visit.event!.name} as ${visit.widgetType} on desktop`).waitFor();
  return visit;
}

async function frameOf(page: Page, selector: string): Promise<Frame | null> {
  const handle = await page.locator(selector).elementHandle();
  return (await handle?.contentFrame()) ?? null;
}

/** Sends as the app's bot through /v1, as the app would. */
async function botSends(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${web.t.url}/v1/chat.sendMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${botToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { uid?: string };
  if (!response.ok || !answer.uid) throw new Error(`chat.sendMessage failed: ${response.status} ${JSON.stringify(answer)}`);
  return answer.uid;
}

describe.skipIf(noBrowser)('the ten events, from the page to a real SDK app', () => {
  it('app.install from the apps directory: the event with the person’s token, and the outcome shown (a refusal too)', async () => {
    const gatekeeper = await startWidgetApp(web.t, { teamId: web.cast.team.id, developerId: web.cast.alice.id, name: 'Gatekeeper', integrations: () => ({}) });
    gatekeeper.answer = () => {
      throw new Error('not taking installs today');
    };
    const { page, context, errors, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'App directory' }).click();
    const refused = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Gatekeeper' }) });
    await refused.getByRole('button', { name: 'Install' }).click();
    await toast(page, '"Gatekeeper" was not installed:');
    expect((await gatekeeper.waitForEvent('app.install')).event).toMatchObject({ userId: web.cast.bob.id });
    await refused.getByText('Not installed', { exact: true }).waitFor();
    // Chromium logs the refusal's 502 answer; that one is expected.
    expect(errors.splice(0)).toEqual([expect.stringMatching(/status of 502/)]);
    await gatekeeper.close();

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Relay' }) });
    await card.getByRole('button', { name: 'Install' }).click();
    await toast(page, 'Relay is installed.');
    const { event, claims } = await relay.waitForEvent('app.install');
    expect(event).toMatchObject({ name: 'app.install', userId: web.cast.bob.id });
    const tokens = event as { token: string; userToken: string };
    expect(tokens.token).toMatch(/\S{20,}/);
    expect(tokens.userToken).toBe(tokens.token);
    expect(claims).toMatchObject({ appId: relay.app.id, userId: web.cast.bob.id });
    await card.getByText('Installed', { exact: true }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });

  it('an app with no listener URL: the directory says why Install is greyed out, and with `aviary listen` open installs it', async () => {
    const app = await web.t.f.app(web.cast.team.id, web.cast.alice.id, { name: 'Listen only' });
    const local = await startListener();
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'App directory' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Listen only' }) });
    await card.getByText(/Cannot be installed yet: it has no event listener URL and no open `aviary listen` connection/).waitFor();
    expect(await card.getByRole('button', { name: 'Install' }).isDisabled()).toBe(true);

    const listen = new ListenClient({ appId: app.id, server: web.t.url, credential: app.secret, forwardTo: local.url, print: () => undefined });
    try {
      await listen.connected;
      await page.reload();
      await page.getByRole('link', { name: 'App directory' }).click();
      await card.getByRole('button', { name: 'Install' }).and(page.locator(':enabled')).click();
      await toast(page, 'Listen only is installed.');
      expect((await local.waitFor(1))[0].body).toMatchObject({ name: 'app.install', userId: web.cast.bob.id });
      expect(await card.getByText(/Cannot be installed/).count()).toBe(0);
    } finally {
      listen.stop();
      await local.close();
    }
    expectNoErrors();
    await context.close();
  });

  it('chat.receiveMessage, client.servicemlAction, client.pressButton (attachment buttons), client.openAttachmentWidget and client.widgetAction in a direct chat with the app’s bot', async () => {
    const uid = await botSends({
      to: web.cast.bob.id,
      text: 'Deploy 12 is ready',
      serviceml: '<serviceml>Deploy <b>12</b> is ready. <action id="approve" type="sendEvent">Approve</action></serviceml>',
      attachments: [
        {
          id: 'deploy-12',
          title: 'Deploy 12',
          color: '#2e9e5b',
          views: { widget: { src: `${relay.origin}/widget/attachment`, height: 170 } },
          buttons: [
            { id: 'rerun', name: 'Run again', action: { type: 'sendEvent' } },
            { id: 'logs', name: 'Open the logs', action: { type: 'openBrowser', url: `${relay.origin}/widget/logs`, sendContext: true } },
          ],
        },
      ],
    });
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: /Relay Bot/ }).click();
    await history(page).getByText('Deploy 12', { exact: true }).waitFor();
    const direct = bobIn(botId, 'Relay Bot');

    // A message to the bot: chat.receiveMessage with the message.
    await page.getByRole('textbox', { name: /Message Relay Bot/ }).fill('Is deploy 12 safe?');
    await page.keyboard.press('Enter');
    const received = await relay.waitForEvent('chat.receiveMessage');
    expect(received.event).toMatchObject({ userId: web.cast.bob.id, message: { from: web.cast.bob.id, to: botId, text: 'Is deploy 12 safe?' } });
    expect(received.claims.userId).toBe(web.cast.bob.id);

    // The attachment widget: shown inline, its URL carrying client.openAttachmentWidget, checked by the widget's own server.
    const inline = await verifiedIn(await frameOf(page, 'iframe.attachment-widget'), '/widget/attachment');
    expect(inline.widgetType).toBe('attachment');
    expect(inline.event).toEqual({ name: 'client.openAttachmentWidget', ...direct, messageUid: uid, attachmentId: 'deploy-12' });

    // A ServiceML <action>: client.servicemlAction, answered with a toast.
    await history(page).getByRole('button', { name: 'Approve' }).click();
    await toast(page, 'Relay: action approve');
    expect((await relay.waitForEvent('client.servicemlAction')).event).toEqual({ name: 'client.servicemlAction', ...direct, messageUid: uid, actionId: 'approve', responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/) });

    // An attachment button sending to the listener: a toast.
    await history(page).getByRole('button', { name: 'Run again' }).click();
    await toast(page, 'Relay: attachmentButton rerun');
    expect((await relay.waitForEvent('client.pressButton', ({ event }) => 'buttonId' in event && event.buttonId === 'rerun')).event).toEqual({
      name: 'client.pressButton',
      ...direct,
      button: 'attachmentButton',
      messageUid: uid,
      attachmentId: 'deploy-12',
      buttonId: 'rerun',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });

    // The row mounts again when the chat is opened again: the page keeps the widget's signed URL while it
    // is valid, so the server signs it (and the delivery log records the open) once.
    await page.getByRole('link', { name: 'App directory' }).click();
    await page.getByRole('link', { name: /Relay Bot/ }).click();
    const [first, again] = await relay.waitForVisits('/widget/attachment', 2);
    expect(again!.claims!.jti).toBe(first!.claims!.jti);
    const opens = await web.t.testStore.store.db.selectFrom('events').select(['id', 'opened_url']).where('app_id', '=', relay.app.id).where('name', '=', 'client.openAttachmentWidget').execute();
    expect(opens).toEqual([{ id: first!.claims!.jti, opened_url: `${relay.origin}/widget/attachment` }]);

    // An attachment button opening a browser page with its context: a new tab, whose server verified the event.
    const [tab] = await Promise.all([context.waitForEvent('page'), history(page).getByRole('button', { name: 'Open the logs' }).click()]);
    await tab.waitForLoadState();
    const logs = await verifiedIn(tab.mainFrame(), '/widget/logs');
    expect(logs.event).toMatchObject({ name: 'client.pressButton', button: 'attachmentButton', buttonId: 'logs', messageUid: uid });
    await tab.close();

    // From inside the attachment widget, through /widget.js: openWidget → a modal with client.widgetAction, verified inside.
    await (await frameOf(page, 'iframe.attachment-widget'))!.getByRole('button', { name: 'Open the details' }).click();
    const modal = page.getByRole('dialog', { name: 'Relay widget' });
    await modal.waitFor();
    const details = await verifiedIn(await frameOf(page, 'dialog iframe.widget-frame'), '/widget/details');
    expect(details.widgetType).toBe('modal');
    expect(details.event).toEqual({ name: 'client.widgetAction', ...direct, messageUid: uid, attachmentId: 'deploy-12' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // openBrowser from the modal's widget: a tab with client.widgetAction; close() from the widget closes the modal.
    const modalFrame = (await frameOf(page, 'dialog iframe.widget-frame'))!;
    const [widgetTab] = await Promise.all([context.waitForEvent('page'), modalFrame.getByRole('button', { name: 'Open in a tab' }).click()]);
    await widgetTab.waitForLoadState();
    const fromWidget = await verifiedIn(widgetTab.mainFrame(), '/widget/tab');
    expect(fromWidget.event).toMatchObject({ name: 'client.widgetAction', userId: web.cast.bob.id });
    await widgetTab.close();
    await modalFrame.getByRole('button', { name: 'Done' }).click();
    await modal.waitFor({ state: 'detached' });

    // Every listener event came with a token the SDK verified for this app and this person.
    for (const { claims } of relay.events) expect(claims).toMatchObject({ appId: relay.app.id });
    expectNoErrors();
    await context.close();
  });

  it('client.slashCommand (a toast, and a modal widget), client.pressButton from the chat tab, the attachment picker and the launcher', async () => {
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'general' }).click();
    const general = bobIn(web.cast.channel.id, 'general');
    const composer = page.getByRole('textbox', { name: /Message #general/ });

    await composer.fill('/status production');
    await page.keyboard.press('Enter');
    await toast(page, 'Relay: /status production');
    expect((await relay.waitForEvent('client.slashCommand', ({ event }) => 'command' in event && event.command === 'status')).event).toEqual({
      name: 'client.slashCommand',
      ...general,
      command: 'status',
      text: 'production',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });

    // Enter first completes the command from the list, then sends it.
    await composer.fill('/board');
    await page.getByRole('option', { name: /\/board/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Relay widget' }).waitFor();
    const board = await verifiedIn(await frameOf(page, 'dialog iframe.widget-frame'), '/widget/board');
    expect(board.event).toEqual({ name: 'client.slashCommand', ...general, command: 'board', text: '' });
    expect(board.widgetType).toBe('modal');
    await page.getByRole('button', { name: 'Close the widget' }).click();
    await page.getByRole('dialog', { name: 'Relay widget' }).waitFor({ state: 'detached' });

    // On a phone the chat's name keeps room to be read; the app's tab button goes under it, and works there.
    await page.setViewportSize({ width: 390, height: 844 });
    const heading = page.getByRole('heading', { name: 'general', level: 1 });
    await expect.poll(() => heading.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.getByRole('button', { name: 'Relay status' }).click();
    await toast(page, 'Relay: chatTabButton');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect((await relay.waitForEvent('client.pressButton', ({ event }) => 'button' in event && event.button === 'chatTabButton')).event).toEqual({
      name: 'client.pressButton',
      ...general,
      button: 'chatTabButton',
      responseUrl: expect.stringMatching(/\/api\/respond\/as_r_/),
    });

    await page.getByRole('button', { name: '+ Attach a deploy' }).click();
    const picker = await verifiedIn(await frameOf(page, 'dialog iframe.widget-frame'), '/widget/picker');
    expect(picker.event).toEqual({ name: 'client.pressButton', ...general, button: 'attachmentPickerButton' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Relay widget' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Relay home' }).click();
    const panel = page.getByRole('complementary', { name: 'Relay widget' });
    await panel.waitFor();
    const launcher = await verifiedIn(await frameOf(page, 'aside iframe.widget-frame'), '/widget/launcher');
    expect(launcher.widgetType).toBe('sidebar');
    expect(launcher.event).toEqual({ name: 'client.pressButton', ...general, button: 'appLauncherButton' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });

  it('client.messageAction on one message, and on several picked with checkboxes (mouse, Shift and keyboard)', async () => {
    await writeHistory(web.t, web.cast.channel, web.cast.alice, [{ text: 'first: the build is red' }, { text: 'second: looking into it' }, { text: 'third: flaky test, rerunning' }]);
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'general' }).click();
    await history(page).getByText('third: flaky test, rerunning').waitFor();
    const row = (text: string) => history(page).getByRole('article').filter({ hasText: text });

    await row('second: looking into it').getByRole('button', { name: 'File as ticket' }).click();
    await toast(page, 'Relay filed 1 message(s)');
    const one = await relay.waitForEvent('client.messageAction');
    expect(one.event).toMatchObject({ ...bobIn(web.cast.channel.id, 'general'), messageUids: [expect.any(String)], messages: [{ text: 'second: looking into it' }] });

    // Select the first, Shift-click the third (the range), then unpick the second from the keyboard.
    await row('first: the build is red').getByRole('button', { name: /^Select the message/ }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected messages' });
    await bar.getByText('1 message selected').waitFor();
    await row('third: flaky test').getByRole('checkbox').click({ modifiers: ['Shift'] });
    await bar.getByText('3 messages selected').waitFor();
    const second = row('second: looking into it').getByRole('checkbox');
    await second.focus();
    await page.keyboard.press('Space');
    await bar.getByText('2 messages selected').waitFor();
    expect(await second.isChecked()).toBe(false);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await bar.getByRole('button', { name: 'File as ticket' }).click();
    await toast(page, 'Relay filed 2 message(s)');
    const several = await relay.waitForEvent('client.messageAction', ({ event }) => (event as { messageUids: string[] }).messageUids.length === 2);
    const { messageUids, messages } = several.event as { messageUids: string[]; messages: Array<{ uid: string; text: string }> };
    expect(messages.map((message) => message.text)).toEqual(['first: the build is red', 'third: flaky test, rerunning']);
    expect(messageUids).toEqual(messages.map((message) => message.uid));
    expect(several.claims.userId).toBe(web.cast.bob.id);
    await bar.waitFor({ state: 'detached' });

    // Escape leaves picking without acting.
    await row('first: the build is red').getByRole('button', { name: /^Select the message/ }).click();
    await bar.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });
    expect(await history(page).getByRole('checkbox').count()).toBe(0);
    expectNoErrors();
    await context.close();
  });

  it('chat.generateUrlPreview: the app’s attachment appears live in the open page', async () => {
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'general' }).click();
    await page.getByRole('textbox', { name: /Message #general/ }).fill('See https://tickets.example.test/7 please');
    await page.keyboard.press('Enter');
    await history(page).getByText('Ticket 7: the build is red').waitFor();
    const { event, claims } = await relay.waitForEvent('chat.generateUrlPreview');
    expect(event).toMatchObject({ userId: web.cast.bob.id, url: 'https://tickets.example.test/7', chat: web.cast.channel.id, to: web.cast.channel.id, messageUid: expect.any(String) });
    expect(claims.userId).toBe(web.cast.bob.id);
    expectNoErrors();
    await context.close();
  });

  it('app.uninstall from the apps directory', async () => {
    const { page, context, expectNoErrors } = await signInAsBob();
    await page.getByRole('link', { name: 'App directory' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Relay' }) });
    await card.getByRole('button', { name: 'Uninstall' }).click();
    await toast(page, 'Relay is uninstalled.');
    const { event, claims } = await relay.waitForEvent('app.uninstall');
    expect(event).toEqual({ name: 'app.uninstall', userId: web.cast.bob.id });
    expect(claims).toMatchObject({ appId: relay.app.id, userId: web.cast.bob.id });
    await card.getByRole('button', { name: 'Install' }).waitFor();
    expectNoErrors();
    await context.close();
  });
});
