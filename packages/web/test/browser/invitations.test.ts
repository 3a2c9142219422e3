import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { createInvitation, revokeInvitation } from '../../../server/src/core/commands/invitations.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { linkIn, startSmtp } from '../../../server/test/helpers/smtp.js';
import { freePort } from '../../../server/test/invitations/harness.js';
import { PASSWORD, signInPage } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * Joining a team in Chromium: an admin invites one person by email through a real SMTP server on
 * loopback and makes an invite link for another; both sign up on the invite page, land in the team's
 * channel and chat with each other. Then "Forgot password?" through the same SMTP server.
 */
const smtp = await startSmtp();
const port = await freePort();
const web = browserSuite({ config: { port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url }, close: () => smtp.close() });
const opened: WatchedPage[] = [];
const NEW_PASSWORD = 'my own long passphrase';

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const composer = (page: Page) => page.getByRole('textbox', { name: /Message #lobby/ });

async function open(url: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(web.browser);
  opened.push(watched);
  await watched.page.goto(url);
  return watched;
}

async function signUp(page: Page, fields: { email?: string; first: string; last: string }) {
  if (fields.email) await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('First name').fill(fields.first);
  await page.getByLabel('Last name').fill(fields.last);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
}

describe.skipIf(noBrowser)('joining a team by invitation in the web client', () => {
  it('one joins by email, another by link; both land in the team and chat', async () => {
    const team = await web.t.f.team('Harbor');
    const admin = await web.t.f.person(team.id, { role: 'admin', firstName: 'Hana', lastName: 'Harbor', password: PASSWORD });
    await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'lobby', type: 'public', members: [] });

    const hana = await signInPage(web.browser, web.t, admin.email!);
    opened.push(hana);
    const { page } = hana;
    await page.getByRole('button', { name: 'Invite people' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    // By email: mailed, so no link is shown.
    await dialog.getByLabel('Email', { exact: true }).fill('ivy@example.test');
    await dialog.getByRole('checkbox', { name: '# lobby' }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    // Said where the person looks, in the dialog (not behind it), and dismissed there.
    const mailed = dialog.getByRole('status').filter({ hasText: 'An invitation was mailed to ivy@example.test.' });
    await mailed.waitFor();
    await mailed.getByRole('button', { name: 'Dismiss' }).click();
    await mailed.waitFor({ state: 'detached' });
    // A link for up to three people, into the lobby.
    await dialog.getByRole('radio', { name: 'With a link' }).check();
    await dialog.getByLabel('How many people may use it').fill('3');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    // The link made takes the focus, in view, ready to copy.
    await expect.poll(() => dialog.getByLabel('Invite link').evaluate((input) => input === document.activeElement)).toBe(true);
    const link = await dialog.getByLabel('Invite link').inputValue();
    expect(link.startsWith(`${web.t.url}/invite/inv_`)).toBe(true);
    const invitations = dialog.getByRole('region', { name: 'Invitations' });
    await invitations.getByText(/^Link · member · 0 of 3 used · active/).waitFor();
    // Which channels each brings into shows under it (here the lobby, for both).
    expect(await invitations.getByText(/^expires .* · into 1 channel$/).count()).toBe(2);
    await invitations.getByText(/^ivy@example.test · member · 0 of 1 used · active/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'invite-dialog');
    await invitations.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'invitations-list');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Ivy follows the mailed link.
    const mail = await smtp.nextMailTo('ivy@example.test');
    const ivy = await open(linkIn(mail));
    await ivy.page.getByRole('heading', { name: 'Join Harbor' }).waitFor();
    await ivy.page.getByText('Hana Harbor invited you').waitFor();
    await ivy.page.getByText('ivy@example.test').waitFor();
    await signUp(ivy.page, { first: 'Ivy', last: 'Inlet' });
    expect(await seriousAccessibilityViolations(ivy.page)).toEqual([]);
    await saveScreenshot(ivy.page, 'invite-sign-up');
    await ivy.page.getByRole('button', { name: 'Join Harbor' }).click();
    await ivy.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /lobby/ }).click();

    // Leo uses the link.
    const leo = await open(link);
    await signUp(leo.page, { email: 'leo@example.test', first: 'Leo', last: 'Lagoon' });
    // The browser's zone is offered first; Leo picks his own.
    await leo.page.getByLabel('Time zone').selectOption('Europe/Lisbon');
    await leo.page.getByText('Times will be shown for Europe/Lisbon').waitFor();
    await leo.page.getByRole('button', { name: 'Join Harbor' }).click();
    await leo.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /lobby/ }).click();

    await composer(ivy.page).fill('Hello from Ivy');
    await ivy.page.keyboard.press('Enter');
    await history(leo.page).getByText('Hello from Ivy').waitFor();
    await composer(leo.page).fill('Hi Ivy, Leo here');
    await leo.page.keyboard.press('Enter');
    await history(ivy.page).getByText('Hi Ivy, Leo here').waitFor();

    const zones = await web.t.testStore.store.db.selectFrom('users').select(['email', 'timezone']).where('team_id', '=', team.id).where('email', 'in', ['ivy@example.test', 'leo@example.test']).orderBy('email').execute();
    expect(zones).toEqual([{ email: 'ivy@example.test', timezone: 'UTC' }, { email: 'leo@example.test', timezone: 'Europe/Lisbon' }]);

    // Leo signed up by link: a verification mail came too.
    expect(linkIn(await smtp.nextMailTo('leo@example.test'))).toMatch(/\/verify-email#ver_/);
    for (const watched of opened) watched.expectNoErrors();
  });

  it('refuses a revoked link on the invite page, saying why', async () => {
    const team = await web.t.f.team('Cove');
    const admin = await web.t.f.person(team.id, { role: 'admin', firstName: 'Cora', lastName: 'Cove' });
    const made = await createInvitation(web.t.server.ctx, { person: admin, address: null }, {});
    await revokeInvitation(web.t.server.ctx, { person: admin, address: null }, { invitationId: made.invitation.id });
    const visitor = await open(made.url!);
    await visitor.page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    await visitor.page.getByRole('alert').getByText('This invitation was revoked; ask whoever invited you for a new one.').waitFor();
    expect(await seriousAccessibilityViolations(visitor.page)).toEqual([]);
  });

  it('“Forgot password?” mails a link; the reset page sets a new password and signs in', async () => {
    const team = await web.t.f.team('Reef');
    const person = await web.t.f.person(team.id, { firstName: 'Rae', lastName: 'Reef', email: 'rae@example.test', password: PASSWORD });
    await createChannel(web.t.server.ctx, { user: person, appId: null }, { name: 'lobby', type: 'public', members: [] });
    const rae = await open(`${web.t.url}/signin`);
    await rae.page.getByRole('link', { name: 'Forgot password?' }).click();
    await rae.page.getByRole('heading', { name: 'Forgot password' }).waitFor();
    await rae.page.getByLabel('Email').fill('rae@example.test');
    expect(await seriousAccessibilityViolations(rae.page)).toEqual([]);
    await saveScreenshot(rae.page, 'forgot-password');
    await rae.page.getByRole('button', { name: 'Mail me a link' }).click();
    await rae.page.getByText(/a link to set a new password is on its way/).waitFor();

    const mail = await smtp.nextMailTo('rae@example.test');
    await rae.page.goto(linkIn(mail));
    await rae.page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await rae.page.getByLabel('New password').fill(NEW_PASSWORD);
    expect(await seriousAccessibilityViolations(rae.page)).toEqual([]);
    await saveScreenshot(rae.page, 'reset-password');
    await rae.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await rae.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    expect(new URL(rae.page.url()).pathname).not.toBe('/reset-password');
    rae.expectNoErrors();
  });
});
