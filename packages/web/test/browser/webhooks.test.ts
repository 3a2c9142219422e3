import { describe, expect, it } from 'vitest';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { postHook } from '../../../server/test/webhooks/hookCast.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * Incoming webhooks in the web client: made from a channel's members dialog (the URL shown once), a
 * message posted through one marked as the webhook's beside the real sender, and revoking it.
 */
const web = webSuite();

describe.skipIf(noBrowser)('incoming webhooks in the web client', () => {
  it('a member makes one, its message says it came through a webhook, and revoking it stops the URL', async () => {
    const { bob } = web.cast;
    const maker = await signInPage(web.browser, web.t, bob.email!);
    const { page } = maker;
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'general' }).click();
    await page.getByRole('button', { name: '2 members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Members of #general' });
    await dialog.getByText('Incoming webhooks').click();
    await dialog.getByText('No webhooks post to this channel.').waitFor();
    await dialog.getByRole('textbox', { name: 'Webhook name' }).fill('Deploy bot');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    const urlField = dialog.getByRole('textbox', { name: 'URL of the webhook Deploy bot' });
    const url = new URL(await urlField.inputValue());
    expect(url.pathname).toMatch(/^\/hooks\/wh_[a-z2-7]{16}\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('list', { name: 'Webhooks' }).getByText('made by Bob Baker, never used').waitFor();

    const posted = await postHook(web.t.url, url.pathname, JSON.stringify({ text: 'Deployed *v2*' }));
    expect([posted.status, posted.body]).toEqual([200, 'ok']);
    await page.keyboard.press('Escape');
    const message = page.getByRole('article', { name: 'Deploy bot (sent by Bob Baker via a webhook)' });
    await message.getByText('v2').waitFor();

    await page.getByRole('button', { name: '2 members' }).click();
    await dialog.getByText('Incoming webhooks').click();
    await dialog.getByRole('button', { name: 'Revoke the webhook Deploy bot' }).click();
    await dialog.getByText('No webhooks post to this channel.').waitFor();
    expect((await postHook(web.t.url, url.pathname, JSON.stringify({ text: 'after' }))).status).toBe(404);
    maker.expectNoErrors();
    await maker.context.close();
  });
});
