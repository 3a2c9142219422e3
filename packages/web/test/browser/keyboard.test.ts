import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, openWatchedPage } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInToSidebar } from './cast.js';
import { browserSuite } from './suite.js';

/**
 * Keyboard use where focus used to get lost: a confirmation inside the admin console, its tabs, and the
 * sidebar that slides over the conversation on a narrow screen (a phone, or a browser zoomed to 200%).
 */
const web = browserSuite();

const signInAs = (email: string, view?: Parameters<typeof openWatchedPage>[1]) => signInToSidebar(web.browser, web.t, email, view);
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? document.activeElement?.tagName);

async function keyboardCast() {
  const team = await web.t.f.team('Heron');
  const admin = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin', timezone: '+00:00' });
  await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'harbour', type: 'public', members: [] });
  return { admin };
}

describe.skipIf(noBrowser)('keyboard use of the web client', () => {
  it('a confirmation closes alone and gives the focus back; the console’s arrows move the focus with the tab', async () => {
    const { admin } = await keyboardCast();
    const { page, context } = await signInAs(admin.email!);
    await page.getByRole('button', { name: 'Admin console' }).click();
    const console = page.getByRole('dialog', { name: 'Admin console' });
    await console.getByRole('tab', { name: 'People' }).focus();
    await page.keyboard.press('ArrowRight');
    const channelsTab = console.getByRole('tab', { name: 'Channels' });
    expect(await channelsTab.getAttribute('aria-selected')).toBe('true');
    expect(await focused(page)).toBe('Channels');

    const makePrivate = console.getByRole('button', { name: 'Make private: #harbour' });
    const confirm = page.getByRole('dialog', { name: 'Make #harbour private?' });
    // Escape closes the confirmation only; the focus is back on what opened it.
    await makePrivate.click();
    await confirm.waitFor();
    // What cannot be taken back is not where the focus starts.
    expect(await focused(page)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await console.waitFor();
    expect(await focused(page)).toBe('Make private: #harbour');
    // Cancel does the same.
    await makePrivate.click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await console.isVisible()).toBe(true);
    expect(await focused(page)).toBe('Make private: #harbour');
    await context.close();
  });

  it('on a narrow screen the slid-away sidebar is out of the Tab order; opened, it takes the focus, and Escape or a tap beside it closes it', async () => {
    const { admin } = await keyboardCast();
    const { page, context } = await signInAs(admin.email!, { width: 640, height: 400 });
    const sidebar = page.getByRole('navigation', { name: 'Conversations' });
    await page.getByRole('textbox', { name: /Message #harbour/ }).waitFor();
    expect(await sidebar.evaluate((element) => element.closest('.sidebar')?.hasAttribute('inert'))).toBe(true);

    const menu = page.getByRole('button', { name: /Show conversations/ });
    await menu.click();
    expect(await sidebar.evaluate((element) => element.closest('.sidebar')?.hasAttribute('inert'))).toBe(false);
    expect(await page.evaluate(() => document.querySelector('.sidebar')?.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.sidebar')?.hasAttribute('inert'));
    expect(await focused(page)).toMatch(/Show conversations/);

    await menu.click();
    await page.mouse.click(620, 200);
    await page.waitForFunction(() => document.querySelector('.sidebar')?.hasAttribute('inert'));
    expect(await page.locator('.nav-backdrop').count()).toBe(0);
    await context.close();
  });
});
