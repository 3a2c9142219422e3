import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { closeSdkApps, startSdkApp } from '../../../server/test/client/harness.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInOn, webCast, writeHistory } from './cast.js';
import { browserSuite } from './suite.js';

/**
 * The web client in Debian's Chromium against a real server on port 0 serving the real build: sign-in
 * with a team choice, history, sending, slash commands with a real SDK app, axe-core on each screen (the
 * screenshots of these screens are screenshots.test.ts's; scrolling back through history is
 * historyPages.test.ts's). Each test has people of its own (webCast), so that none depends on another.
 */
const web = browserSuite({ close: closeSdkApps });

const signInAs = (page: Page, email: string, team?: string) => signInOn(page, web.t, email, team);

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

describe.skipIf(noBrowser)('the web client in a browser', () => {
  it('keyboard only: sign in (picking the team), send with Enter, a slash command picked from the list answers with a toast', async () => {
    const cast = await webCast(web.t);
    const weather = await startSdkApp(web.t, {
      teamId: cast.team.id,
      developerId: cast.alice.id,
      integrations: { slashCommands: [{ name: 'weather', description: 'The forecast for a city', action: { type: 'sendEvent' } }] },
    });
    weather.answer = (event) => ({ text: `Sunny in ${(event as { text?: string }).text}` });
    await web.t.f.install(weather.app.id, cast.alice.id);
    await writeHistory(web.t, cast.channel, cast.bob, [{ text: 'Morning all! The release notes are up.' }, { text: 'Standup moved to 10:30.' }]);

    const { page, expectNoErrors, context } = await openWatchedPage(web.browser);
    await page.goto(`${web.t.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.keyboard.type(cast.alice.email!);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: /several teams/ }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // The focus is on the first team; arrows move between teams, Enter signs in.
    const focused = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent);
    if (focused !== 'Northwind') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');

    await history(page).getByText('Standup moved to 10:30.').waitFor();
    await expect(page.getByRole('heading', { name: 'general' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Northwind').first().isVisible()).resolves.toBe(true);
    // The composer has the focus when a conversation opens.
    await page.keyboard.type('Hello from the keyboard');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Enter');
    await history(page).getByText(/Hello from the keyboard\s+second line/).waitFor();

    await page.keyboard.type('/we');
    const option = page.getByRole('option', { name: /\/weather/ });
    await option.waitFor();
    await expect(option.textContent()).resolves.toContain('The forecast for a city');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Lisbon');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Sunny in Lisbon').waitFor();
    expect(weather.received.map((event) => event.event.name)).toContain('client.slashCommand');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });

  it('two people chat in a channel (each sees the other’s message on opening it)', async () => {
    const cast = await webCast(web.t);
    const alice = await openWatchedPage(web.browser);
    const bob = await openWatchedPage(web.browser);
    await signInAs(alice.page, cast.alice.email!, 'Northwind');
    await signInAs(bob.page, cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await alice.page.getByRole('textbox', { name: /Message #general/ }).fill('Bob, lunch at noon?');
    await alice.page.keyboard.press('Enter');
    await history(alice.page).getByText('Bob, lunch at noon?').waitFor();
    await bob.page.reload();
    await bob.page.getByRole('link', { name: 'general' }).click();
    await history(bob.page).getByText('Bob, lunch at noon?').waitFor();
    await bob.page.getByRole('textbox', { name: /Message #general/ }).fill('Yes, see you there');
    await bob.page.keyboard.press('Enter');
    await alice.page.reload();
    await history(alice.page).getByText('Yes, see you there').waitFor();
    alice.expectNoErrors();
    bob.expectNoErrors();
    await alice.context.close();
    await bob.context.close();
  });
});
