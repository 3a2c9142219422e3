import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInOn, signInPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Mentions that notify, two people at once: Alice picks Bob with "@" in the composer, Bob's sidebar shows
 * the mention apart from the unread count, his hidden tab shows a browser notification (observed by
 * wrapping window.Notification) that opens the message, the tab title counts, the Mentions view lists it,
 * and muting the channel stops its notifications while direct messages still come.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

/**
 * Runs in Bob's page before its scripts: records each Notification made, and lets the test hide the tab
 * as Chrome hides a background tab: `visibilityState` is "hidden", `visibilitychange` fires, and no
 * animation frame runs until the tab shows again (headless Chromium never hides a page by itself).
 */
function recordNotifications() {
  const w = window as unknown as { __notifications: unknown[]; __hidden: boolean; __setHidden: (hidden: boolean) => void; Notification: unknown };
  w.__notifications = [];
  w.__hidden = false;
  const animationFrame = window.requestAnimationFrame.bind(window);
  const held: FrameRequestCallback[] = [];
  window.requestAnimationFrame = (callback) => {
    if (!w.__hidden) return animationFrame(callback);
    held.push(callback);
    return 0;
  };
  w.__setHidden = (hidden) => {
    w.__hidden = hidden;
    document.dispatchEvent(new Event('visibilitychange'));
    if (!hidden) for (const callback of held.splice(0)) animationFrame(callback);
  };
  const Real = window.Notification;
  class Recorded {
    onclick: (() => void) | null = null;
    closed = false;
    constructor(
      readonly title: string,
      readonly options: NotificationOptions = {},
    ) {
      w.__notifications.push(this);
    }
    close() {
      this.closed = true;
    }
    static get permission() {
      return Real.permission;
    }
    static requestPermission() {
      return Real.requestPermission();
    }
  }
  w.Notification = Recorded;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (w.__hidden ? 'hidden' : 'visible') });
}

const shown = (page: Page) => page.evaluate(() => (window as unknown as { __notifications: Array<{ title: string; options: NotificationOptions }> }).__notifications.map((n) => ({ title: n.title, body: n.options.body, tag: n.options.tag })));
const hide = (page: Page, hidden: boolean) => page.evaluate((value) => (window as unknown as { __setHidden: (hidden: boolean) => void }).__setHidden(value), hidden);

describe.skipIf(noBrowser)('mentions and notifications in the web client', () => {
  it('counts in a hidden tab’s title the new messages of the chat open in it, and reads them once the tab shows', async () => {
    const { alice, bob } = web.cast;
    const { channel } = await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'backstage', type: 'public', members: [bob.id] });
    const bobPage = await openWatchedPage(web.browser);
    await bobPage.context.addInitScript(recordNotifications);
    await signInOn(bobPage.page, web.t, bob.email!);
    const bobSide = bobPage.page.getByRole('navigation', { name: 'Conversations' });
    await bobSide.getByRole('link', { name: /^backstage/ }).click();
    await bobPage.page.getByRole('heading', { name: 'backstage', level: 1 }).waitFor();
    await expect.poll(() => bobPage.page.title()).toBe('Aviary');

    // Bob's tab goes to the background with #backstage open; Alice writes there twice.
    await hide(bobPage.page, true);
    await sendMessage(web.t.server.ctx, { user: alice, appId: null }, { to: channel.id, text: 'Doors open at seven' });
    await sendMessage(web.t.server.ctx, { user: alice, appId: null }, { to: channel.id, text: 'Bring the badges' });
    await expect.poll(() => bobPage.page.title(), { timeout: 15_000 }).toBe('(2) Aviary');

    // Back in view: the messages are read where they are shown, and the count goes.
    await hide(bobPage.page, false);
    await history(bobPage.page).getByText('Bring the badges').waitFor();
    await expect.poll(() => bobPage.page.title(), { timeout: 15_000 }).toBe('Aviary');
    await expect.poll(async () => (await web.t.testStore.store.db.selectFrom('chat_reads').select('read_uid').where('user_id', '=', bob.id).where('chat_key', '=', channel.id).execute()).length).toBe(1);
    bobPage.expectNoErrors();
    await bobPage.context.close();
  });

  it('notifies the person mentioned, badges the mention apart, opens the message from the notification, and respects mute', async () => {
    const { alice, bob, channel: general } = web.cast;
    await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'random', type: 'public', members: [bob.id] });

    const bobPage = await openWatchedPage(web.browser);
    await bobPage.context.grantPermissions(['notifications'], { origin: web.t.url });
    await bobPage.context.addInitScript(recordNotifications);
    await signInOn(bobPage.page, web.t, bob.email!);
    const bobSide = bobPage.page.getByRole('navigation', { name: 'Conversations' });
    await bobSide.getByRole('link', { name: /^random/ }).click();
    await bobPage.page.getByRole('heading', { name: 'random', level: 1 }).waitFor();
    // Allowed already: no card asks again.
    expect(await bobSide.getByRole('button', { name: 'Turn on notifications' }).count()).toBe(0);
    await hide(bobPage.page, true);

    // Alice's browser has not been asked: the sidebar offers it, and nothing asked on load.
    const alicePage = await signInPage(web.browser, web.t, alice.email!, 'Northwind');
    await alicePage.page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Turn on notifications' }).waitFor();
    expect(await seriousAccessibilityViolations(alicePage.page)).toEqual([]);
    await alicePage.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^general/ }).click();
    const composer = alicePage.page.getByRole('textbox', { name: /Message #general/ });
    await composer.pressSequentially('@Bo');
    await alicePage.page.getByRole('option', { name: /Bob Baker/ }).waitFor();
    await composer.press('Enter');
    await composer.pressSequentially('please review the draft');
    await composer.press('Enter');
    await history(alicePage.page).getByText('please review the draft').waitFor();

    // Bob: the mention badge apart from the unread count, the title, and one notification.
    const generalLink = bobSide.getByRole('link', { name: /^general/ });
    await generalLink.getByLabel('1 mentioning you').waitFor();
    await generalLink.getByLabel('1 unread').waitFor();
    await expect.poll(() => bobPage.page.title()).toBe('(1) Aviary');
    expect(await bobPage.page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
    await expect.poll(() => shown(bobPage.page)).toEqual([{ title: 'Alice Archer in #general', body: '@Bob Baker please review the draft', tag: expect.any(String) }]);
    // The composer sent the person it picked as the message's mentions.
    const [stored] = await web.t.testStore.store.db.selectFrom('messages').select(['uid', 'mentions']).where('chat_key', '=', general.id).where('text', 'like', '%please review%').execute();
    expect(JSON.parse(stored!.mentions!)).toEqual([bob.id]);
    expect((await shown(bobPage.page))[0]!.tag).toBe(stored!.uid);

    // Clicking the notification opens the message, highlighted; the badge goes once read.
    await hide(bobPage.page, false);
    await bobPage.page.evaluate(() => (window as unknown as { __notifications: Array<{ onclick: () => void }> }).__notifications[0]!.onclick());
    await bobPage.page.waitForURL(new RegExp(`/c/${encodeURIComponent(general.id)}\\?m=${stored!.uid}`));
    await history(bobPage.page).locator('.message.highlighted').filter({ hasText: 'please review the draft' }).waitFor();
    await generalLink.getByLabel(/mentioning you/).waitFor({ state: 'detached' });
    await expect.poll(() => bobPage.page.title()).toBe('Aviary');

    // The Mentions view lists it.
    await bobSide.getByRole('button', { name: 'Mentions', exact: true }).click();
    const mentions = bobPage.page.getByRole('dialog', { name: 'Mentions' });
    await mentions.getByRole('link', { name: /please review the draft/ }).waitFor();
    // Bob marked as in the history, not as the typed text.
    await mentions.locator('.sml-mention', { hasText: 'Bob Baker' }).waitFor();
    expect(await seriousAccessibilityViolations(bobPage.page)).toEqual([]);
    await mentions.getByRole('button', { name: 'Close' }).click();

    // Bob mutes #general from the open chat's notification settings.
    await bobSide.getByRole('button', { name: 'Notifications', exact: true }).click();
    const settings = bobPage.page.getByRole('dialog', { name: 'Notifications' });
    // Checked once the server has it (the choice shows the stored level).
    await settings.getByRole('radio', { name: 'Nothing (mute)' }).click();
    await expect.poll(() => settings.getByRole('radio', { name: 'Nothing (mute)' }).isChecked()).toBe(true);
    await expect.poll(async () => (await web.t.testStore.store.db.selectFrom('notification_levels').select('level').where('user_id', '=', bob.id).execute()).map((r) => r.level)).toEqual(['mute']);
    expect(await seriousAccessibilityViolations(bobPage.page)).toEqual([]);
    await settings.getByRole('button', { name: 'Close' }).click();
    await bobSide.getByRole('link', { name: /^random/ }).click();
    await hide(bobPage.page, true);

    // A mention in the muted channel notifies nothing; the direct message after it does (frames come in order).
    const post = (to: string, text: string, mentionIds?: string[]) =>
      alicePage.context.request.post(`${web.t.url}/v1/chat.sendMessage`, { headers: { origin: web.t.url }, data: { to, text, ...(mentionIds ? { mentions: mentionIds } : {}) } });
    expect((await post(general.id, '@Bob Baker muted ping', [bob.id])).ok()).toBe(true);
    expect((await post(bob.id, 'a direct word')).ok()).toBe(true);
    await expect.poll(async () => (await shown(bobPage.page)).map((n) => n.body)).toEqual(['@Bob Baker please review the draft', 'a direct word']);
    // The muted channel's counts still show, dimmed.
    await generalLink.getByLabel('1 unread (muted)').waitFor();

    alicePage.expectNoErrors();
    // Bob allowed notifications, so his page subscribed to Web Push: a test's browser context is
    // incognito, where Chromium has no push service and says so on the console (the page carries on).
    expect(bobPage.errors.filter((error) => !/does not support the Push API in incognito mode/.test(error))).toEqual([]);
    await Promise.all([alicePage.context.close(), bobPage.context.close()]);
   });

  it('follows a thread from its panel: a reply in it notifies and opens the thread; unfollowed, the next does not', async () => {
    const { alice, bob } = web.cast;
    const ctx = web.t.server.ctx;
    const { channel } = await createChannel(ctx, { user: alice, appId: null }, { name: 'release', type: 'public', members: [bob.id] });
    const { message: parent } = await sendMessage(ctx, { user: alice, appId: null }, { to: channel.id, text: 'Who writes the release notes?' });
    const reply = (text: string) => sendMessage(ctx, { user: alice, appId: null }, { to: channel.id, text, threadParent: parent.uid });

    const bobPage = await openWatchedPage(web.browser);
    await bobPage.context.grantPermissions(['notifications'], { origin: web.t.url });
    await bobPage.context.addInitScript(recordNotifications);
    await signInOn(bobPage.page, web.t, bob.email!);
    await bobPage.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}?thread=${parent.uid}`);
    const panel = bobPage.page.getByRole('complementary', { name: 'Thread', exact: true });
    // Bob neither wrote, replied to nor was named in it: he does not follow it until he says so.
    await panel.getByRole('button', { name: 'Follow', exact: true }).click();
    await panel.getByRole('button', { name: 'Unfollow', exact: true }).waitFor();
    const follows = () => web.t.testStore.store.db.selectFrom('thread_follows').select('following').where('parent_uid', '=', parent.uid).where('user_id', '=', bob.id).executeTakeFirst();
    expect(await follows()).toEqual({ following: 1 });
    await bobPage.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
    await history(bobPage.page).getByText('Who writes the release notes?').waitFor();
    await hide(bobPage.page, true);

    const { message: first } = await reply('I will, by Friday');
    await expect.poll(() => shown(bobPage.page)).toEqual([{ title: 'Alice Archer in #release', body: 'I will, by Friday', tag: first.uid }]);
    // The sidebar's Threads counts the thread with a reply not read.
    const threadsButton = bobPage.page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /^Threads/ });
    await threadsButton.getByLabel('1 unread').waitFor();
    // The notification opens the thread beside its parent, which reads it.
    await hide(bobPage.page, false);
    await bobPage.page.evaluate(() => (window as unknown as { __notifications: Array<{ onclick: () => void }> }).__notifications[0]!.onclick());
    await bobPage.page.waitForURL(new RegExp(`\\?m=${parent.uid}&thread=${parent.uid}$`));
    await panel.getByRole('listitem').filter({ hasText: 'I will, by Friday' }).waitFor();
    await threadsButton.getByLabel('1 unread').waitFor({ state: 'detached' });

    // Unfollowed: the next reply notifies nothing; a direct message after it does (frames come in order).
    await panel.getByRole('button', { name: 'Unfollow', exact: true }).click();
    await panel.getByRole('button', { name: 'Follow', exact: true }).waitFor();
    expect(await follows()).toEqual({ following: 0 });
    await hide(bobPage.page, true);
    await reply('Draft is up');
    await sendMessage(ctx, { user: alice, appId: null }, { to: bob.id, text: 'did you see the draft?' });
    await expect.poll(async () => (await shown(bobPage.page)).map((n) => n.body)).toEqual(['I will, by Friday', 'did you see the draft?']);
    expect(bobPage.errors.filter((error) => !/does not support the Push API in incognito mode/.test(error))).toEqual([]);
    await bobPage.context.close();
  });

  it('on a phone, the ☰ button says when other conversations have unread messages, and mentions; a dialog opened from the sidebar closes it', async () => {
    const team = await web.t.f.team('Pipit');
    const ann = await web.t.f.person(team.id, { firstName: 'Ann', lastName: 'Ash', password: PASSWORD });
    const ben = await web.t.f.person(team.id, { firstName: 'Ben', lastName: 'Birch', password: PASSWORD });
    const ctx = web.t.server.ctx;
    const { channel: open } = await createChannel(ctx, { user: ann, appId: null }, { name: 'open-here', type: 'public', members: [ben.id] });
    const { channel: other } = await createChannel(ctx, { user: ann, appId: null }, { name: 'elsewhere', type: 'public', members: [ben.id] });
    const phone = await signInPage(web.browser, web.t, ben.email!, undefined, { width: 390, height: 800 });
    await phone.page.goto(`${web.t.url}/c/${encodeURIComponent(open.id)}`);
    await phone.page.getByRole('heading', { name: 'open-here', level: 1 }).waitFor();
    const menu = phone.page.locator('.conversation-header .menu-button');
    expect(await menu.getAttribute('aria-label')).toBe('Show conversations');
    expect(await menu.locator('.menu-badge').count()).toBe(0);
    // A direct message, then a mention in another channel, while Ben reads this one.
    await sendMessage(ctx, { user: ann, appId: null }, { to: ben.id, text: 'Lunch?' });
    await expect.poll(() => menu.getAttribute('aria-label')).toBe('Show conversations: 1 unread');
    await menu.locator('.menu-badge:not(.mention)').waitFor();
    await sendMessage(ctx, { user: ann, appId: null }, { to: other.id, text: '@Ben Birch can you look?', mentions: [ben.id] });
    await expect.poll(() => menu.getAttribute('aria-label')).toBe('Show conversations: 2 unread, 1 mentioning you');
    await menu.locator('.menu-badge.mention').waitFor();
    // A dialog opened from the sidebar takes its place: closing it leaves the chat in view.
    await menu.click();
    await phone.page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Mentions', exact: true }).click();
    await phone.page.getByRole('dialog', { name: 'Mentions' }).waitFor();
    expect(await phone.page.locator('.workspace.nav-open').count()).toBe(0);
    phone.expectNoErrors();
    await phone.context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows the Mentions view and the notification settings at 1280 and 390 (${colorScheme})`, async () => {
      const { alice, bob, channel: general } = web.cast;
      await sendMessage(web.t.server.ctx, { user: alice, appId: null }, { to: general.id, text: `@Bob Baker the ${colorScheme} mockups are up`, mentions: [bob.id] });
      for (const width of [1280, 390]) {
        const page = await signInPage(web.browser, web.t, bob.email!, undefined, { colorScheme, width, height: 800 });
        await page.page.goto(`${web.t.url}/c/${encodeURIComponent(general.id)}`);
        await page.page.getByRole('heading', { name: 'general', level: 1 }).waitFor();
        const side = page.page.getByRole('navigation', { name: 'Conversations' });
        if (width === 390) await page.page.getByRole('button', { name: 'Show conversations' }).click();
        await side.getByRole('button', { name: 'Mentions', exact: true }).click();
        const mentions = page.page.getByRole('dialog', { name: 'Mentions' });
        await mentions.getByRole('link').first().waitFor();
        expect(await seriousAccessibilityViolations(page.page)).toEqual([]);
        await saveScreenshot(page.page, `mentions-${width}-${colorScheme}`);
        await mentions.getByRole('button', { name: 'Close' }).click();
        // The dialog closed the sidebar it was opened from: on a phone, it is opened again.
        if (width === 390) await page.page.getByRole('button', { name: 'Show conversations' }).click();
        await side.getByRole('button', { name: 'Notifications', exact: true }).click();
        const settings = page.page.getByRole('dialog', { name: 'Notifications' });
        await settings.getByRole('radio', { name: 'Nothing (mute)' }).waitFor();
        await settings.getByRole('checkbox', { name: 'On' }).check();
        await settings.getByRole('button', { name: 'Save schedule' }).waitFor();
        expect(await seriousAccessibilityViolations(page.page)).toEqual([]);
        await saveScreenshot(page.page, `notifications-${width}-${colorScheme}`);
        page.expectNoErrors();
        await page.context.close();
      }
       });
  }
});
