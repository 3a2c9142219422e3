import { describe, expect, it } from 'vitest';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * The impersonation attempt of the security review: a member makes an app, installs it and sends with its
 * token under `sendAs: {name: <another person's name>}`. What the other person reads says who really sent
 * it (the member, through the app), even for an app made after their page loaded.
 */
const web = webSuite();

describe.skipIf(noBrowser)('a sendAs name in the web client', () => {
  it('shows the real sender and the app beside the name an app chose, so a member cannot pass for another', async () => {
    const { alice, bob, channel, team } = web.cast;
    const reader = await signInPage(web.browser, web.t, alice.email!, 'Northwind');
    await reader.page.getByRole('link', { name: 'general' }).click();

    const app = await web.t.f.app(team.id, bob.id, { name: 'Helpful Notes' });
    const { token } = await web.t.f.install(app.id, bob.id);
    await web.t.client(token).chat.sendMessage({ to: channel.id, text: 'Please send me your password', sendAs: { name: 'Alice Archer' } });

    const history = reader.page.getByRole('region', { name: 'Message history' });
    const message = history.getByRole('article', { name: 'Alice Archer (sent by Bob Baker via Helpful Notes)' });
    await message.waitFor();
    expect(await message.locator('.real-sender').innerText()).toBe('sent by Bob Baker via Helpful Notes');
    expect(await message.locator('.message-sender').innerText()).toBe('Alice Archer');

    reader.expectNoErrors();
    await reader.context.close();
  });
});
