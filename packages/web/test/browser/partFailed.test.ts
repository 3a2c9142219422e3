import { describe, expect, it } from 'vitest';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { forgetRefusal, signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * A part of the page loaded on first use that cannot be loaded (Aviary updated since the page opened, so
 * the old build's file is gone; or the network dropped): the rest of the page keeps working, a notice
 * says so and offers to reload, and the reloaded page opens the part.
 */
const web = webSuite();

describe.skipIf(noBrowser)('a part of the page that fails to load', () => {
  it('leaves the page working, says why, and a reload brings the part', async () => {
    const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    const { page } = alice;
    const chunk = /\/assets\/MentionsDialog-[^/]+\.js$/;
    await page.route(chunk, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone with the last build' }));
    await page.getByRole('button', { name: 'Mentions' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'This part of Aviary could not be loaded' });
    await notice.waitFor();
    forgetRefusal(alice, 404);
    // Everything else is still there and works: the composer sends.
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    const box = page.getByRole('textbox', { name: /^Message / });
    await box.fill('still here');
    await box.press('Enter');
    await page.getByRole('region', { name: 'Message history' }).getByText('still here').waitFor();
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });

    // Opened again, it fails again (the page keeps the failed load): Reload brings the new build's part.
    await page.getByRole('button', { name: 'Mentions' }).click();
    await notice.waitFor();
    await page.unroute(chunk);
    await notice.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await page.getByRole('button', { name: 'Mentions' }).click();
    await page.getByRole('dialog', { name: 'Mentions' }).waitFor();
    // What the page logged of the failed loads (one per attempt) is the test's doing, not the page's.
    expect(alice.errors.every((error) => /404|MentionsDialog|dynamically imported module/.test(error))).toBe(true);
    await alice.context.close();
  });
});
