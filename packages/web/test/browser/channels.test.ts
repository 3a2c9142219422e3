import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInPage } from './cast.js';
import { webSuite } from './suite.js';

/** Channels in the web client: creating one with the keyboard only, browsing and joining. Each test makes its own channel. */
const web = webSuite();

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
const focusIsInDialogOrNowhere = (page: Page) => page.evaluate(() => document.activeElement === document.body || document.activeElement?.closest('dialog[open]') !== null);

/** Presses Tab until the element labelled `label` has the focus. */
async function tabTo(page: Page, label: string) {
  for (let presses = 0; presses < 60 && (await focusedLabel(page)) !== label; presses++) await page.keyboard.press('Tab');
  expect(await focusedLabel(page)).toBe(label);
}

describe.skipIf(noBrowser)('channels in the web client', () => {
  it('says a chat the person cannot read is not found, with nothing to type into: a private channel they are not in, and none at all', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'alice-only', type: 'private', members: [] });
    const { page, context, errors } = await signInPage(web.browser, web.t, web.cast.bob.email!);
    for (const chat of [channel.id, 'g:doesnotexist']) {
      await page.goto(`${web.t.url}/c/${encodeURIComponent(chat)}`);
      await page.getByRole('heading', { name: 'Conversation not found', level: 1 }).waitFor();
      expect(await page.getByRole('textbox', { name: /^Message/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    }
    // The browser's own line for each refused page is all that was logged.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((line) => /status of 400/.test(line))).toBe(true);
    await context.close();
  });

  it('keyboard only: the sidebar’s + opens a labelled modal that Escape closes; the new channel appears in the sidebar', async () => {
    const { page, expectNoErrors, context } = await signInPage(web.browser, web.t, web.cast.bob.email!);
    await tabTo(page, 'Create a channel');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create a channel' });
    await dialog.waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedLabel(page)).toBe('Create a channel');

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // A name a channel already has (letter case aside) is refused before anything is made.
    await page.keyboard.type('General');
    await page.keyboard.press('Enter');
    await dialog.getByText('There is already a channel named #General').waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('design');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Pixels and type');
    // The focus stays in the dialog however far one tabs.
    for (let presses = 0; presses < 8; presses++) {
      await page.keyboard.press('Tab');
      expect(await focusIsInDialogOrNowhere(page)).toBe(true);
    }
    await tabTo(page, 'Create channel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'design' }).waitFor();
    await expect(page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'design' }).isVisible()).resolves.toBe(true);
    expectNoErrors();
    await context.close();
  });

  it('browses the public channels and joins one, which then appears in the sidebar', async () => {
    await createChannel(web.t.server.ctx, { user: web.cast.bob, appId: null }, { name: 'typography', purpose: 'Letters and their spacing', type: 'public', members: [] });
    const carla = await web.t.f.person(web.cast.team.id, { firstName: 'Carla', lastName: 'Cook', password: PASSWORD });
    await web.t.server.ctx.db.insertInto('channel_members').values({ channel_id: web.cast.channel.id, user_id: carla.id, affiliation: 'member', joined_at: Date.now() }).execute();
    const { page, expectNoErrors, context } = await signInPage(web.browser, web.t, carla.email!);
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    expect(await sidebar.getByRole('link', { name: 'typography' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Browse channels' }).click();
    const dialog = page.getByRole('dialog', { name: 'Browse channels' });
    await dialog.getByText('Letters and their spacing').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Join typography' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'typography' }).waitFor();
    await sidebar.getByRole('link', { name: 'typography' }).waitFor();
    expectNoErrors();
    await context.close();
  });
});
