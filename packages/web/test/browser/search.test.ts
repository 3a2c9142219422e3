import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { signInPage, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Message search in the web client (issue 24), two people at once: Alice (390 px, a phone) sends a
 * message; Bob (1280 px) opens the search with Ctrl+F, finds it with its words highlighted among the
 * results grouped by chat (a public channel he is not in marked as such, a hostile message shown as
 * text), pages with "More results", narrows with a filter, and clicks to open the message in its chat.
 * Alice searches from the quick switcher. In light and in dark.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const searchDialog = (page: Page) => page.getByRole('dialog', { name: 'Search messages' });

async function search(page: Page, query: string): Promise<void> {
  const dialog = searchDialog(page);
  await dialog.getByRole('searchbox', { name: 'Search messages' }).fill(query);
  await dialog.getByRole('button', { name: 'Search', exact: true }).click();
  await dialog.getByRole('region', { name: `Results for ${query}` }).waitFor();
}

describe.skipIf(noBrowser)('message search', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds what the other person just sent, highlighted, and opens it in context (${colorScheme})`, async () => {
      const { cast } = web;
      const name = `launch-${colorScheme}`;
      const { channel } = await createChannel(web.t.server.ctx, { user: cast.alice, appId: null }, { name, purpose: 'Launch plans', members: [cast.bob.id] });
      const lounge = `lounge-${colorScheme}`;
      const { channel: open } = await createChannel(web.t.server.ctx, { user: cast.alice, appId: null }, { name: lounge, purpose: 'Open to all', type: 'public', members: [] });
      // 25 older matches (more than a page of 20), one of them hostile; and one in a public channel Bob is not in.
      const older = Array.from({ length: 24 }, (_, index) => ({ text: `Roadmap note ${index} for the ${colorScheme} launch` }));
      older.push({ text: `<img src=x onerror="window.__searchXss=1"> roadmap <b>bold</b> ${colorScheme}` });
      await writeHistory(web.t, { id: channel.id, team_id: cast.team.id }, cast.bob, older, 60_000, Date.now() - 3_600_000);
      await writeHistory(web.t, { id: open.id, team_id: cast.team.id }, cast.alice, [{ text: `Roadmap questions welcome here (${colorScheme})` }], 60_000, Date.now() - 60_000);

      const alice = await signInPage(web.browser, web.t, cast.alice.email!, 'Northwind', { colorScheme, width: 390, height: 800 });
      await alice.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await alice.page.getByRole('heading', { name, level: 1 }).waitFor();
      const bob = await signInPage(web.browser, web.t, cast.bob.email!, undefined, { colorScheme });

      // Alice sends; her message shows in the history (not among the pending ones) once it is stored.
      const sent = `Roadmap review moved to Thursday (${colorScheme})`;
      await alice.page.getByRole('textbox', { name: new RegExp(`Message #${name}`) }).fill(sent);
      await alice.page.keyboard.press('Enter');
      await history(alice.page).getByRole('article').filter({ hasText: sent }).waitFor();

      // Bob: Ctrl+F, "roadmap thursday" finds Alice's message with both words marked.
      await bob.page.keyboard.press('Control+f');
      const dialog = searchDialog(bob.page);
      await dialog.waitFor();
      await dialog.getByText('Search filters').click();
      await dialog.getByText('only what they sent').waitFor();
      await dialog.getByText('Search filters').click();
      await search(bob.page, `roadmap thursday ${colorScheme}`);
      const hit = dialog.getByRole('link', { name: new RegExp(`Roadmap review moved to Thursday`) });
      await hit.waitFor();
      expect(await hit.locator('mark').allTextContents()).toEqual(['Roadmap', 'Thursday', colorScheme]);

      // "roadmap": grouped by chat, the public channel Bob is not in marked, the hostile one as text, a second page.
      await search(bob.page, `roadmap ${colorScheme}`);
      const groups = dialog.locator('.search-group h3');
      await expect.poll(() => groups.allTextContents()).toEqual([`#${name}`, `#${lounge}Public channel you are not in · opening a message joins it`]);
      const results = dialog.getByRole('link');
      await expect.poll(() => results.count()).toBe(20);
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await saveScreenshot(bob.page, `search-${colorScheme}`);
      await dialog.getByRole('button', { name: 'More results' }).click();
      await expect.poll(() => results.count()).toBe(27);
      await expect.poll(() => dialog.getByRole('button', { name: 'More results' }).count()).toBe(0);
      const hostile = dialog.getByRole('link').filter({ hasText: '<img src=x' });
      expect(await hostile.locator('mark').allTextContents()).toEqual(['roadmap', colorScheme]);
      expect(await hostile.locator('img, b').count()).toBe(0);
      expect(await bob.page.evaluate(() => (window as unknown as { __searchXss?: number }).__searchXss)).toBeUndefined();

      // A filter narrows to one person; a bad one says what is wrong.
      await search(bob.page, `roadmap from:@alice ${colorScheme}`);
      await expect.poll(() => results.count()).toBe(2);
      await dialog.getByRole('searchbox').fill('roadmap before:2026-02-31');
      await dialog.getByRole('button', { name: 'Search', exact: true }).click();
      await dialog.getByRole('alert').filter({ hasText: /2026-02-31/ }).waitFor();
      // The refused search leaves nothing of the one before it shown under its reason.
      expect(await results.count()).toBe(0);

      // The click opens Alice's message in its chat, highlighted.
      await search(bob.page, `roadmap thursday ${colorScheme}`);
      await hit.click();
      await dialog.waitFor({ state: 'detached' });
      await bob.page.waitForURL(/\?m=/);
      await history(bob.page).locator('.message.highlighted').filter({ hasText: sent }).waitFor();

      // Alice, on her phone, searches from the quick switcher.
      await alice.page.keyboard.press('Control+k');
      const switcher = alice.page.getByRole('dialog', { name: 'Jump to a conversation' });
      await switcher.getByRole('combobox').fill(`note 3 ${colorScheme}`);
      await switcher.getByRole('option', { name: `Search messages for “note 3 ${colorScheme}”` }).click();
      const found = searchDialog(alice.page);
      await found.getByRole('link', { name: /Roadmap note 3 for the/ }).waitFor();
      expect(await found.getByRole('link').count()).toBe(1);
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await saveScreenshot(alice.page, `search-390-${colorScheme}`);

      // Opening the match in the public channel joins it (Bob).
      await bob.page.keyboard.press('Control+f');
      await search(bob.page, `questions ${colorScheme}`);
      await dialog.getByRole('link', { name: /Roadmap questions welcome/ }).click();
      await history(bob.page).locator('.message.highlighted').filter({ hasText: 'Roadmap questions welcome' }).waitFor();
      await bob.page.getByRole('heading', { name: lounge, level: 1 }).waitFor();

      alice.expectNoErrors();
      bob.expectNoErrors();
      await Promise.all([alice.context.close(), bob.context.close()]);
    }, 300_000);
  }
});
