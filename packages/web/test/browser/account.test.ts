import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { http } from '../../../server/test/client/harness.js';
import { forgetRefusal, PASSWORD, signedInPages } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * One's account in the profile dialog: "Change password" (refusals in place) and "Your sessions" (sign
 * out one, or everywhere else). A second browser, signed in as the same person, sees itself signed out
 * live when the password changes.
 */
const web = browserSuite();
const { signInAs, closeAll } = signedInPages(web);
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';


describe.skipIf(noBrowser)('one’s account in the web client', () => {
  it('changes the password with refusals in place, lists the sessions, signs out one and everywhere else', async () => {
    const team = await web.t.f.team('Eastwind');
    const alice = await web.t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer', password: PASSWORD, timezone: '+01:00' });
    const signInWith = (userAgent: string) => http(web.t.url, 'POST', '/api/session', { json: { email: alice.email, password: PASSWORD }, headers: { 'user-agent': userAgent } });
    const laptop = await signInWith(FIREFOX);
    const phone = await signInWith(IPHONE);
    const elsewhere = await signInAs(alice.email!);
    const mine = await signInAs(alice.email!);
    const { page } = mine;

    await page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    const sessions = dialog.getByRole('region', { name: 'Your sessions' });
    await sessions.getByText('Firefox on Windows').waitFor();
    await sessions.getByText('Safari on iPhone').waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(4);
    await sessions.getByText('(this browser)').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    // A wrong current password is refused under its field; a common new one under the other.
    const form = dialog.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill('a fresh passphrase of mine');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').getByText(/currentPassword/).waitFor();
    expect(await form.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
    forgetRefusal(mine, 400);
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password').fill('password123');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').getByText(/common/).waitFor();
    expect(await form.getByLabel('New password').getAttribute('aria-invalid')).toBe('true');
    forgetRefusal(mine, 400);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'account-password-refused');

    // Sign out the laptop from the list; its session ends.
    await sessions.getByRole('button', { name: /^Sign out Firefox on Windows/ }).click();
    await sessions.getByText('Firefox on Windows').waitFor({ state: 'detached' });
    expect((await http(web.t.url, 'POST', '/v1/users.getInfo', { json: {}, headers: { authorization: `Bearer ${laptop.body.sessionToken}` } })).status).toBe(401);
    await dialog.getByRole('heading', { name: 'Your sessions' }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'account-sessions');

    // The right current password: the other browser is signed out live, this one stays.
    await form.getByLabel('New password').fill('a fresh passphrase of mine');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Your password is changed; your 2 other sessions were signed out/).waitFor();
    await elsewhere.page.getByText('Signed out: reload the page to sign in again.').waitFor();
    expect((await http(web.t.url, 'POST', '/v1/users.getInfo', { json: {}, headers: { authorization: `Bearer ${phone.body.sessionToken}` } })).status).toBe(401);
    await sessions.getByText('Safari on iPhone').waitFor({ state: 'detached' });
    expect(await sessions.getByRole('listitem').count()).toBe(1);
    expect(await sessions.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

    // Sign in once more elsewhere, and sign out everywhere else from here.
    const again = await signInWith(FIREFOX.replace('Windows NT 10.0; Win64; x64', 'X11; Linux x86_64')).then(async (answer) => {
      expect(answer.status).toBe(401); // the old password no longer opens the account
      return http(web.t.url, 'POST', '/api/session', { json: { email: alice.email, password: 'a fresh passphrase of mine' }, headers: { 'user-agent': FIREFOX } });
    });
    expect(again.status).toBe(200);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    await sessions.getByText('Firefox on Windows').waitFor();
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await sessions.getByText('Firefox on Windows').waitFor({ state: 'detached' });
    expect((await http(web.t.url, 'POST', '/v1/users.getInfo', { json: {}, headers: { authorization: `Bearer ${again.body.sessionToken}` } })).status).toBe(401);
    expect((await page.evaluate(() => fetch('/v1/users.getInfo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((answer) => answer.status)))).toBe(200);

    await closeAll(elsewhere);
  });
});
