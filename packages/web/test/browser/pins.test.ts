import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { settledAtBottom, signInPage, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Pins, saved items and links to a message in the web client (issue 23), two people at once: Alice at
 * 1280 px pins a message from its "…" menu and Bob, on a phone (390 px), sees it pinned live and finds it
 * in the chat's "Pinned" list; Alice saves a message and finds it under "Saved items"; a link to a message
 * far back in history, opened in a fresh page, shows it in view and highlighted. In light and in dark.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const messageWith = (page: Page, text: string) => history(page).getByRole('article').filter({ hasText: text });

async function menuItem(page: Page, text: string, item: string): Promise<void> {
  await openMenu(page, text);
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/**
 * Opens a message's "…" menu, and checks that each of its items is what a click at its centre reaches:
 * not painted over by the messages below it, nor cut off by the history's bottom edge.
 */
async function openMenu(page: Page, text: string): Promise<void> {
  const message = messageWith(page, text);
  await message.hover();
  await message.getByRole('button', { name: /^More actions/ }).click();
  const reached = await page.getByRole('menu').evaluate((menu) =>
    [...menu.querySelectorAll('[role="menuitem"]')].map((item) => {
      const box = item.getBoundingClientRect();
      return item.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    }),
  );
  expect(reached.length).toBeGreaterThan(0);
  expect(reached, `the menu items of “${text}” a click reaches`).toEqual(reached.map(() => true));
}

/** The element is within the history's visible part. */
async function inView(page: Page, text: string): Promise<boolean> {
  const box = await messageWith(page, text).boundingBox();
  const view = await history(page).boundingBox();
  return box !== null && view !== null && box.y >= view.y - 1 && box.y + Math.min(box.height, 40) <= view.y + view.height + 1;
}

describe.skipIf(noBrowser)('pins, saved items and links to a message', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`pins live for the other person, saves, and opens a link far back in history (${colorScheme})`, async () => {
      const name = `decisions-${colorScheme}`;
      const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, purpose: 'What we agreed', members: [web.cast.bob.id] });
      // 300 older messages, the one to link to near the start: far more than the first page holds.
      const old = Array.from({ length: 300 }, (_, index) => ({ text: index === 5 ? 'We ship on Thursdays' : `Status update ${index}` }));
      await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.bob, [...old, { text: 'Retro moved to Friday' }, { text: 'Standup at 9:30' }], 60_000);

      const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { colorScheme });
      await alice.page.getByRole('link', { name }).click();
      await alice.page.getByRole('heading', { name, level: 1 }).waitFor();
      const bob = await signInPage(web.browser, web.t, web.cast.bob.email!, undefined, { colorScheme, width: 390, height: 800 });
      await bob.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await bob.page.getByRole('heading', { name, level: 1 }).waitFor();
      await messageWith(bob.page, 'Standup at 9:30').waitFor();

      // Alice pins; Bob sees it pinned live, and in the chat's Pinned list.
      await menuItem(alice.page, 'Standup at 9:30', 'Pin to conversation');
      await messageWith(alice.page, 'Standup at 9:30').getByText('Pinned by you').waitFor();
      await messageWith(bob.page, 'Standup at 9:30').getByText('Pinned by Alice Archer').waitFor();
      await bob.page.getByRole('button', { name: 'Pinned messages' }).click();
      const pinned = bob.page.getByRole('dialog', { name: `Pinned in #${name}` });
      await pinned.getByRole('link', { name: /Standup at 9:30/ }).waitFor();
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await saveScreenshot(bob.page, `pins-390-${colorScheme}`);
      await pinned.getByRole('link', { name: /Standup at 9:30/ }).click();
      await pinned.waitFor({ state: 'detached' });
      await messageWith(bob.page, 'Standup at 9:30').waitFor();

      // A menu opened with messages below it is drawn over them.
      await openMenu(alice.page, 'Status update 290');
      await alice.page.keyboard.press('Escape');
      await alice.page.getByRole('menu').waitFor({ state: 'detached' });

      // Alice saves a message and finds it under "Saved items"; its link opens the chat at it.
      await menuItem(alice.page, 'Retro moved to Friday', 'Save');
      await alice.page.getByText('Saved', { exact: true }).waitFor();
      await menuItem(alice.page, 'Retro moved to Friday', 'Copy link');
      await alice.page.getByText(/Link copied|Copy this link/).first().waitFor();
      await alice.page.getByRole('button', { name: 'Saved items' }).click();
      const saved = alice.page.getByRole('dialog', { name: 'Saved items' });
      await saved.getByRole('link', { name: /Retro moved to Friday/ }).waitFor();
      expect(await saved.getByText(`In #${name}`, { exact: false }).count()).toBe(1);
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await saved.getByRole('link', { name: /Retro moved to Friday/ }).click();
      await alice.page.waitForURL(/\?m=/);
      await history(alice.page).locator('.message.highlighted').filter({ hasText: 'Retro moved to Friday' }).waitFor();
      // The menu now offers to take it back out.
      await menuItem(alice.page, 'Retro moved to Friday', 'Remove from saved');

      // A link to a message 297 back, in a fresh page: the chat opens at it, highlighted.
      const { uid } = await web.t.testStore.store.db.selectFrom('messages').select('uid').where('chat_key', '=', channel.id).where('text', '=', 'We ship on Thursdays').executeTakeFirstOrThrow();
      expect(uid).toBeDefined();
      const linked = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { colorScheme });
      await linked.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}?m=${uid}`);
      const target = history(linked.page).locator('.message.highlighted').filter({ hasText: 'We ship on Thursdays' });
      await target.waitFor();
      await expect.poll(() => inView(linked.page, 'We ship on Thursdays')).toBe(true);
      expect(await messageWith(linked.page, 'Standup at 9:30').count()).toBe(0);
      expect(await seriousAccessibilityViolations(linked.page)).toEqual([]);
      await linked.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await saveScreenshot(linked.page, `permalink-${colorScheme}`);
      // "Jump to newest" leaves the link for the chat's end.
      await linked.page.getByRole('button', { name: /Jump to newest/ }).click();
      await messageWith(linked.page, 'Standup at 9:30').waitFor();
      await settledAtBottom(linked.page);
      await saveScreenshot(linked.page, `pins-${colorScheme}`);

      alice.expectNoErrors();
      bob.expectNoErrors();
      linked.expectNoErrors();
      await Promise.all([alice.context.close(), bob.context.close(), linked.context.close()]);
    });
  }

  it('adds the next page of saved items once when "Show more" is clicked twice while it comes', async () => {
    const { alice: aliceRow, bob, team } = web.cast;
    const { channel } = await createChannel(web.t.server.ctx, { user: aliceRow, appId: null }, { name: 'keepers', members: [bob.id] });
    const written = await writeHistory(web.t, { id: channel.id, team_id: team.id }, bob, Array.from({ length: 60 }, (_, index) => ({ text: `Keeper ${index + 1}` })));
    await web.t.testStore.store.db
      .insertInto('saved_items')
      .values(written.map((message, index) => ({ user_id: aliceRow.id, message_uid: message.uid, team_id: team.id, saved_at: Date.now() - index })))
      .execute();
    const alice = await signInPage(web.browser, web.t, aliceRow.email!, 'Northwind');
    const { page } = alice;
    await page.getByRole('button', { name: 'Saved items' }).click();
    const saved = page.getByRole('dialog', { name: 'Saved items' });
    await expect.poll(() => saved.getByRole('link').count()).toBe(50);

    // The second page is held on its way while "Show more" is clicked twice.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/saved.list', async (route) => {
      if (route.request().postData()?.includes('cursor')) await held;
      await route.continue();
    });
    await saved.getByRole('button', { name: 'Show more' }).dblclick();
    release();
    await saved.getByRole('link').filter({ hasText: 'Keeper 60' }).waitFor();
    await saved.getByRole('button', { name: 'Show more' }).waitFor({ state: 'detached' });
    const shown = await saved.getByRole('link').allInnerTexts();
    expect(shown).toHaveLength(60);
    expect(new Set(shown).size).toBe(60);
    alice.expectNoErrors();
    await alice.context.close();
  });
});
