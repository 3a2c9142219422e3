import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';

/** Typing in the web client: what one person types shows in the other's open conversation, until the message comes. */
const web = webSuite();

const signInAs = (email: string, team?: string): Promise<WatchedPage> => signInPage(web.browser, web.t, email, team);

const indicator = (page: Page) => page.locator('.typing-indicator');

describe.skipIf(noBrowser)('typing in the web client', () => {
  it('shows “Alice is typing…” in Bob’s open channel while she types, and clears it when her message comes', async () => {
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    const bob = await signInAs(web.cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await bob.page.getByRole('link', { name: 'general' }).click();
    // Bob's stream must be open before Alice types: typing is not replayed.
    await bob.page.getByRole('textbox', { name: /Message #general/ }).waitFor();

    await alice.page.getByRole('textbox', { name: /Message #general/ }).fill('Bob, about the release');
    await indicator(bob.page).getByText('Alice Archer is typing…').waitFor();
    expect(await indicator(alice.page).textContent()).toBe('');
    expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
    if (process.env.AVIARY_TYPING_SCREENSHOT) await bob.page.screenshot({ path: process.env.AVIARY_TYPING_SCREENSHOT });

    await alice.page.keyboard.press('Enter');
    await bob.page.getByRole('region', { name: 'Message history' }).getByText('Bob, about the release').waitFor();
    await indicator(bob.page).getByText(/is typing/).waitFor({ state: 'detached' });
    alice.expectNoErrors();
    bob.expectNoErrors();
  });
});
