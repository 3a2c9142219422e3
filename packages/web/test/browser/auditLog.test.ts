import { describe, expect, it } from 'vitest';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { PASSWORD, submitSignIn } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/** A team admin opens the audit log in their profile dialog and sees a member's sign-in, and a failed one; a member has no such section. */
const web = browserSuite();

async function signInAs(email: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(web.browser);
  await submitSignIn(watched.page, web.t, email);
  await watched.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
  return watched;
}

describe.skipIf(noBrowser)('the audit log in the web client', () => {
  it('shows a team admin the sign-ins, filtered by action; a member never sees it', async () => {
    const team = await web.t.f.team('Kestrel');
    const admin = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin', timezone: '+00:00' });
    const member = await web.t.f.person(team.id, { firstName: 'Mo', lastName: 'Member', password: PASSWORD });
    const wrong = await fetch(`${web.t.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: member.email, password: 'not the password' }) });
    expect(wrong.status).toBe(401);
    await web.t.server.ctx.background.settled();
    const asMember = await signInAs(member.email!);
    await asMember.page.getByRole('button', { name: /^Your profile: Mo Member/ }).click();
    const memberDialog = asMember.page.getByRole('dialog', { name: 'Your profile' });
    await memberDialog.getByRole('region', { name: 'Your sessions' }).waitFor();
    expect(await memberDialog.getByRole('region', { name: 'Audit log' }).count()).toBe(0);
    asMember.expectNoErrors();
    await asMember.context.close();

    const { page, context, expectNoErrors } = await signInAs(admin.email!);
    await page.getByRole('button', { name: /^Your profile: Ada Admin/ }).click();
    const log = page.getByRole('dialog', { name: 'Your profile' }).getByRole('region', { name: 'Audit log' });
    const table = log.getByRole('table');
    await table.getByRole('row').filter({ hasText: 'session.signIn' }).filter({ hasText: 'Mo Member' }).first().waitFor();
    await table.getByRole('row').filter({ hasText: 'session.signInFailed' }).waitFor();
    await log.scrollIntoViewIfNeeded();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'audit-log');
    // Dark too: the table's sticky header takes the theme's colours (it once stayed white under light text).
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    await log.getByLabel('Action starts with').fill('session.signInFailed');
    await log.getByRole('button', { name: 'Filter' }).click();
    await table.getByRole('row').filter({ hasText: /session\.signIn$/ }).first().waitFor({ state: 'detached' }).catch(() => undefined);
    await expect.poll(async () => (await table.getByRole('row').allInnerTexts()).slice(1).every((row) => row.includes('session.signInFailed'))).toBe(true);
    expect(await table.getByRole('row').count()).toBe(2);

    const [download] = await Promise.all([page.waitForEvent('download'), log.getByRole('button', { name: 'Export JSON lines' }).click()]);
    const lines = (await streamText(await download.createReadStream())).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toMatchObject([{ action: 'session.signInFailed', targetId: member.id, actorUserId: null }]);
    expectNoErrors();
    await context.close();
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}
