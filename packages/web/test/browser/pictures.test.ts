import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInToSidebar, writeHistory } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * Pictures and the admin console's reach, in Chromium: a person uploads a profile picture in the profile
 * dialog and another person, already looking at their message, sees it; a team admin adds someone to a
 * private channel the admin is not in, sets the team's icon, and reads who made and installed the apps.
 */
const web = browserSuite();

const signInAs = (email: string) => signInToSidebar(web.browser, web.t, email);

/** A photo-like PNG: a gradient, so that a square cut from it is not one flat colour. */
const photo = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i % 3 === 0 ? (i / 3) % width : i % 3 === 1 ? Math.floor(i / 3 / width) : 160) % 256)), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();

/** Waits until the image has loaded its bytes (a refused or broken picture has no natural width). */
async function loaded(page: Page, selector: string): Promise<string> {
  const handle = await page.waitForFunction((css) => {
    const image = document.querySelector<HTMLImageElement>(css);
    return image && image.complete && image.naturalWidth > 0 ? image.getAttribute('src') : null;
  }, selector, { timeout: 60_000 });
  return (await handle.jsonValue()) as string;
}

describe.skipIf(noBrowser)('pictures and the admin console’s reach', () => {
  it('shows a picture uploaded in the profile dialog to another person, live', async () => {
    const team = await web.t.f.team('Heron');
    const ann = await web.t.f.person(team.id, { firstName: 'Ann', lastName: 'Archer', password: PASSWORD });
    const ben = await web.t.f.person(team.id, { firstName: 'Ben', lastName: 'Baker', password: PASSWORD });
    const { channel } = await createChannel(web.t.server.ctx, { user: ann, appId: null }, { name: 'lobby', type: 'public', members: [ben.id] });
    await writeHistory(web.t, channel, ann, [{ text: 'Hello from Ann' }]);

    const asBen = await signInAs(ben.email!);
    await asBen.page.goto(`${web.t.url}/c/${channel.id}`);
    const annsMessage = asBen.page.locator('article[aria-label="Ann Archer"]').first();
    await annsMessage.getByText('Hello from Ann').waitFor();
    expect(await annsMessage.locator('img.avatar').count()).toBe(0);

    const asAnn = await signInAs(ann.email!);
    const { page } = asAnn;
    await page.getByRole('button', { name: /Your profile/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    // Not an image: the server's refusal shows, and nothing changes.
    await dialog.getByLabel('Upload…').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await dialog.getByRole('alert').filter({ hasText: /its bytes are/ }).waitFor();
    await dialog.getByLabel('Upload…').setInputFiles({ name: 'ann.png', mimeType: 'image/png', buffer: await photo(300, 200) });
    await page.getByText('Your picture is saved.').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).waitFor();
    const mine = await loaded(page, '.sidebar-footer img.avatar');
    expect(mine).toMatch(/^\/pictures\/[a-z2-7]{26}\?size=256$/);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'profile-picture');

    // Ben, looking at Ann's message all along, sees her picture (user.updated), loaded with his session.
    const seen = await loaded(asBen.page, 'article[aria-label="Ann Archer"] img.avatar');
    expect(seen).toBe(mine);
    await saveScreenshot(asBen.page, 'profile-picture-seen');
    asBen.expectNoErrors();
    // The one refusal was the upload of what is no image.
    expect(asAnn.errors).toEqual([expect.stringMatching(/status of 415/)]);
    await asBen.context.close();
    await asAnn.context.close();
  });

  it('lets an admin add someone to a private channel the admin is not in, set the team icon and read the apps', async () => {
    const team = await web.t.f.team('Plover');
    const ada = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin', timezone: '+00:00' });
    const mo = await web.t.f.person(team.id, { firstName: 'Mo', lastName: 'Moderator', password: PASSWORD });
    const nia = await web.t.f.person(team.id, { firstName: 'Nia', lastName: 'Newcomer', password: PASSWORD });
    await createChannel(web.t.server.ctx, { user: mo, appId: null }, { name: 'lobby', type: 'public', members: [nia.id, ada.id] });
    const { channel: secret } = await createChannel(web.t.server.ctx, { user: mo, appId: null }, { name: 'secret', type: 'private', members: [] });
    const app = await web.t.f.app(team.id, mo.id, { name: 'Standup', description: 'Daily check-ins' });
    await web.t.f.install(app.id, nia.id);

    const asNia = await signInAs(nia.email!);
    const niasSidebar = asNia.page.getByRole('navigation', { name: 'Conversations' });
    await niasSidebar.getByRole('link', { name: /lobby/ }).waitFor();
    expect(await niasSidebar.getByRole('link', { name: /secret/ }).count()).toBe(0);

    const asAda = await signInAs(ada.email!);
    const { page } = asAda;
    await page.getByRole('button', { name: 'Admin console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin console' });
    await dialog.getByRole('tab', { name: 'Channels' }).click();
    await dialog.getByRole('button', { name: 'Members of #secret' }).click();
    const members = dialog.getByRole('region', { name: 'Members of #secret' });
    await members.getByRole('listitem').filter({ hasText: 'Mo Moderator' }).waitFor();
    await members.getByLabel('Add to #secret').selectOption({ label: 'Nia Newcomer' });
    await members.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Nia Newcomer is in #secret now.').waitFor();
    await members.getByRole('button', { name: 'Remove Nia Newcomer from #secret' }).waitFor();
    await dialog.getByText(/private · 2 members/).waitFor();
    // Nia sees the channel at once; Ada never joined it.
    await niasSidebar.getByRole('link', { name: /secret/ }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /secret/ }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-console-channel-members');
    const audit = await web.t.testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'target_id', 'details']).where('team_id', '=', team.id).where('action', '=', 'channel.membersAdded').execute();
    expect(audit.map((row) => [row.actor_user_id, row.target_id, JSON.parse(row.details)])).toEqual([[ada.id, secret.id, { userIds: [nia.id] }]]);

    await dialog.getByRole('tab', { name: 'Team settings' }).click();
    await dialog.getByLabel('Upload…').setInputFiles({ name: 'plover.png', mimeType: 'image/png', buffer: await photo(200, 200) });
    await page.getByText('The team’s icon is saved.').waitFor();
    expect(await loaded(page, '.sidebar-header img.brand-icon')).toMatch(/^\/pictures\/[a-z2-7]{26}\?size=64$/);
    await saveScreenshot(page, 'admin-console-team-icon');

    await dialog.getByRole('tab', { name: 'Apps' }).click();
    const apps = dialog.getByRole('list', { name: 'Apps' });
    await apps.getByText(/made by Mo Moderator/).waitFor();
    await apps.getByText('Installed by 1 person').click();
    await apps.getByRole('list', { name: 'Installs of Standup' }).getByText(/Nia Newcomer, Today at/).waitFor();
    await apps.getByRole('button', { name: 'Disable for team: Standup' }).click();
    await apps.getByText('· disabled for the team').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-console-apps');
    asAda.expectNoErrors();
    asNia.expectNoErrors();
    await asNia.context.close();
    await asAda.context.close();
  });
});
