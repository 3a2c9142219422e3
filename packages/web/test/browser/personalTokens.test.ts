import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { http } from '../../../server/test/client/harness.js';
import { PASSWORD, signedInPages } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * Personal tokens in the profile dialog: made with a name and an expiry, shown once to copy, used by a
 * script (plain fetch from outside the page) to send a message the page then shows, and revoked: the
 * script's next call is refused.
 */
const web = browserSuite();
const { signInAs, closeAll } = signedInPages(web);

describe.skipIf(noBrowser)('personal tokens in the web client', () => {
  it('creates a token, shows it once, a script sends with it, and revoking it refuses the next call', async () => {
    const team = await web.t.f.team('Eastwind');
    const alice = await web.t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer', password: PASSWORD, timezone: '+01:00' });
    const mine = await signInAs(alice.email!);
    const { page } = mine;

    await page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    const tokens = dialog.getByRole('region', { name: 'Personal tokens' });
    await tokens.getByText('You have no personal tokens.').waitFor();
    await tokens.getByLabel('Token name').fill('nightly backup');
    await tokens.getByLabel('Expires').selectOption({ label: 'in 30 days' });
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const shown = tokens.getByLabel(/The token “nightly backup”: copy it now/);
    await shown.waitFor();
    const token = await shown.inputValue();
    expect(token).toMatch(/^as_p_[A-Za-z0-9_-]{43}$/);
    const listed = tokens.getByRole('list', { name: 'Your personal tokens' }).getByRole('listitem');
    await listed.getByText('nightly backup').waitFor();
    await listed.getByText(/created today · expires .* · never used/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await tokens.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'account-personal-token');

    // A script, outside the browser, sends as Alice with the token.
    const script = (method: string, json: unknown) => http(web.t.url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${token}` } });
    const channel = await script('channels.create', { name: 'ops', members: [alice.id] });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    expect((await script('chat.sendMessage', { to: channel.body.id, text: 'Backup finished' })).status).toBe(200);
    await tokens.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /ops/ }).click();
    await page.getByText('Backup finished').waitFor();

    await page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    await listed.getByText(/last used today/).waitFor();
    await tokens.getByRole('button', { name: 'Revoke the token nightly backup' }).click();
    await tokens.getByText('You have no personal tokens.').waitFor();
    const refused = await script('chat.sendMessage', { to: channel.body.id, text: 'one more' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'InvalidToken', description: expect.stringMatching(/revoked/) });

    await closeAll();
  });
});
