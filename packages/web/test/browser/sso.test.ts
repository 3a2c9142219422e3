import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { updateSignInSettings } from '../../../server/src/core/signIn/settings.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { startOidcProvider, type TestOidcProvider } from '../../../server/test/helpers/oidcProvider.js';
import { forgetRefusal, PASSWORD, signInPage } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * Single sign-on in Chromium, through a real OpenID Connect provider on loopback: a team admin sets the
 * provider up in the profile dialog and switches passwords off; a person then signs in through the
 * provider's own form, and one whose email domain the team does not accept lands on a refusal that says
 * what to do.
 */
let idp: TestOidcProvider;
const web = browserSuite({
  start: async ({ t }) => {
    idp = await startOidcProvider();
    idp.configure({
      redirectUri: `${t.url}/api/sso/callback`,
      accounts: {
        ada: { email: 'ada@navy.test', email_verified: true, given_name: 'Ada', family_name: 'Admin' },
        grace: { email: 'grace@navy.test', email_verified: true, given_name: 'Grace', family_name: 'Hopper' },
        mallory: { email: 'mallory@elsewhere.test', email_verified: true, given_name: 'Mallory', family_name: 'Other' },
      },
    });
  },
  close: () => idp.close(),
});

/** Through the provider's sign-in form as `login`, from the sign-in page's button (which asks for `workEmail` when several teams offer single sign-on). */
async function signInThroughProvider(page: import('playwright-core').Page, login: string, workEmail?: string) {
  if (workEmail === undefined) await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  else {
    await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
    await page.getByLabel('Work email').fill(workEmail);
    await saveScreenshot(page, 'sign-in-sso-email');
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
  }
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
}

describe.skipIf(noBrowser)('single sign-on in the web client', () => {
  it('is set up by an admin, then signs a person in through the provider, and refuses a domain the team does not accept', async () => {
    const team = await web.t.f.team('Navy');
    const admin = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', role: 'admin', email: 'ada@navy.test', password: PASSWORD });
    const grace = await web.t.f.person(team.id, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test' });

    await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'general', members: [grace.id] });
    const adminPage = await signInPage(web.browser, web.t, admin.email!);
    const { page } = adminPage;
    await page.getByRole('button', { name: 'Admin console' }).click();
    await page.getByRole('dialog', { name: 'Admin console' }).getByRole('tab', { name: 'Team settings' }).click();
    const form = page.getByRole('form', { name: 'Sign-in methods' });
    await form.getByLabel('Issuer URL').fill(idp.issuer);
    await form.getByLabel('Client id').fill(idp.clientId);
    await form.getByLabel('Client secret').fill(idp.clientSecret);
    await form.getByLabel('Allowed email domains').fill('navy.test');
    await form.getByText(`${web.t.url}/api/sso/callback`).waitFor();
    // Passwords cannot go off before the admin has signed in through the provider: a broken one would lock everyone out.
    await form.getByLabel('People may sign in with a password').uncheck();
    await form.getByRole('button', { name: 'Save sign-in methods' }).click();
    await form.getByText(/Sign in once through .* yourself before switching passwords off/).waitFor();
    forgetRefusal(adminPage, 400);
    await form.getByLabel('People may sign in with a password').check();
    await form.getByRole('button', { name: 'Save sign-in methods' }).click();
    await page.getByText('Sign-in methods saved.').waitFor();
    const adminThroughProvider = await openWatchedPage(web.browser);
    await adminThroughProvider.page.goto(`${web.t.url}/`);
    await signInThroughProvider(adminThroughProvider.page, 'ada');
    await adminThroughProvider.page.getByRole('button', { name: /^Your profile: Ada Admin/ }).waitFor();
    await adminThroughProvider.context.close();
    await form.getByLabel('People may sign in with a password').uncheck();
    await form.getByRole('button', { name: 'Save sign-in methods' }).click();
    await expect.poll(async () => (await web.t.testStore.store.db.selectFrom('team_sign_in').select('password_enabled').where('team_id', '=', team.id).executeTakeFirst())?.password_enabled).toBe(0);
    await form.getByLabel('Client secret').and(page.getByPlaceholder('Kept; type a new one to replace it')).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'sign-in-methods');
    adminPage.expectNoErrors();

    const visitor = await openWatchedPage(web.browser);
    // The provider's development pages log their own misses (its favicon, a font): only Aviary's pages must log no error.
    const aviaryErrors: string[] = [];
    visitor.page.on('console', (message) => {
      if (message.type() === 'error' && message.location().url.startsWith(web.t.url)) aviaryErrors.push(message.text());
    });
    await visitor.page.goto(`${web.t.url}/`);
    await visitor.page.getByRole('link', { name: 'Sign in with single sign-on' }).waitFor();
    expect(await visitor.page.getByLabel('Password').count()).toBe(0);
    expect(await seriousAccessibilityViolations(visitor.page)).toEqual([]);
    await saveScreenshot(visitor.page, 'sign-in-sso');
    await signInThroughProvider(visitor.page, 'grace');
    await visitor.page.getByRole('button', { name: /^Your profile: Grace Hopper/ }).waitFor();
    const session = await visitor.page.evaluate(() => fetch('/api/session').then((response) => response.json()));
    expect(session.user.id).toBe(grace.id);
    expect(aviaryErrors).toEqual([]);

    const outsider = await openWatchedPage(web.browser);
    await outsider.page.goto(`${web.t.url}/`);
    await signInThroughProvider(outsider.page, 'mallory');
    await outsider.page.getByRole('alert').getByText('Your email’s domain is not one this team accepts').waitFor();
    expect(new URL(outsider.page.url()).search).toBe('?sso=domain');
    await saveScreenshot(outsider.page, 'sign-in-sso-refused');
    const audit = await web.t.testStore.store.db.selectFrom('audit_log').select(['action', 'details']).where('team_id', '=', team.id).orderBy('id').execute();
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(['team.signInSettingsChanged', 'session.signIn', 'session.signInFailed']));

    // A second team with a provider: the page names neither, and asks for the work email, which picks the team.
    const army = await web.t.f.team('Army');
    const { db, keyring } = web.t.testStore.store;
    const provider = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: ['elsewhere.test'], createAccounts: true };
    await updateSignInSettings({ db, keyring, envProvider: undefined }, army.id, { provider, passwordEnabled: true }, Date.now());
    const recruit = await openWatchedPage(web.browser);
    await recruit.page.goto(`${web.t.url}/`);
    await recruit.page.getByRole('button', { name: 'Sign in with single sign-on' }).waitFor();
    expect(await recruit.page.getByText(/Navy|Army/).count()).toBe(0);
    await signInThroughProvider(recruit.page, 'mallory', 'mallory@elsewhere.test');
    await recruit.page.getByRole('button', { name: /^Your profile: Mallory Other/ }).waitFor();
    const joined = await recruit.page.evaluate(() => fetch('/api/session').then((response) => response.json()));
    expect(joined.team.id).toBe(army.id);
    for (const opened of [adminPage, visitor, outsider, recruit]) await opened.context.close();
  }, 180_000);
});
