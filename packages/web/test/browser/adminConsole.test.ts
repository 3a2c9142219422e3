import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { changeReaction } from '../../../server/src/core/commands/reactions.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, signInToSidebar } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * The admin console: a team admin changes a role, deactivates and reactivates a person, makes a password
 * reset link, archives a channel and renames the team, and finds each in the audit log; a member who has
 * the archived channel open sees it turn read-only at once, and the team's new name; a member has no console at all.
 */
const web = browserSuite();

const signInAs = (email: string, view?: Parameters<typeof openWatchedPage>[1]) => signInToSidebar(web.browser, web.t, email, view);

describe.skipIf(noBrowser)('the admin console in the web client', () => {
  it('lets an admin do each action and see it in the audit log; a member never sees it', async () => {
    const team = await web.t.f.team('Kestrel');
    const admin = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin', timezone: '+00:00' });
    const member = await web.t.f.person(team.id, { firstName: 'Mo', lastName: 'Member', password: PASSWORD });
    const bo = await web.t.f.person(team.id, { firstName: 'Bo', lastName: 'Brown', password: PASSWORD });
    const { channel } = await createChannel(web.t.server.ctx, { user: member, appId: null }, { name: 'launch', type: 'public', members: [admin.id, bo.id] });
    const said = await sendMessage(web.t.server.ctx, { user: member, appId: null }, { to: channel.id, text: 'Launch is on Friday' });
    await changeReaction(web.t.server.ctx, { user: bo, appId: null, kind: 'person' }, { messageUid: said.message.uid, emoji: '🎉', added: true });

    const asMember = await signInAs(member.email!);
    await asMember.page.goto(`${web.t.url}/c/${channel.id}`);
    await asMember.page.getByRole('textbox', { name: /Message #launch/ }).waitFor();
    expect(await asMember.page.getByRole('button', { name: 'Admin console' }).count()).toBe(0);

    const asAdmin = await signInAs(admin.email!);
    const { page } = asAdmin;
    await page.getByRole('button', { name: 'Admin console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Admin console' });
    const people = dialog.getByRole('list', { name: 'People' });
    await people.getByRole('combobox', { name: 'Role of Bo Brown' }).selectOption('guest');
    await page.getByText('Bo Brown is now guest.').waitFor();
    // Deactivating asks first: Cancel changes nothing; confirmed, Bo is deactivated.
    await people.getByRole('button', { name: 'Deactivate Bo Brown' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Bo Brown?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await people.getByRole('button', { name: 'Reactivate Bo Brown' }).count()).toBe(0);
    await people.getByRole('button', { name: 'Deactivate Bo Brown' }).click();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await people.getByRole('button', { name: 'Reactivate Bo Brown' }).click();
    await people.getByRole('button', { name: 'Deactivate Bo Brown' }).waitFor();
    await people.getByRole('button', { name: 'Reset password of Bo Brown' }).click();
    const link = await dialog.getByLabel(/Password reset link for Bo Brown/).inputValue();
    expect(link).toMatch(new RegExp(`^${web.t.url}/reset-password#pwr_`));
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-console-people');

    await dialog.getByRole('tab', { name: 'Channels' }).click();
    const channels = dialog.getByRole('list', { name: 'Channels' });
    // Making a channel private cannot be undone: it asks first.
    await channels.getByRole('button', { name: 'Make private: #launch' }).click();
    const makePrivate = page.getByRole('dialog', { name: 'Make #launch private?' });
    await makePrivate.getByText('cannot be made public again').waitFor();
    await makePrivate.getByRole('button', { name: 'Cancel' }).click();
    await makePrivate.waitFor({ state: 'detached' });
    expect((await web.t.testStore.store.db.selectFrom('channels').select('type').where('id', '=', channel.id).executeTakeFirstOrThrow()).type).toBe('public');
    await channels.getByRole('button', { name: 'Archive #launch' }).click();
    await channels.getByRole('button', { name: 'Unarchive #launch' }).waitFor();
    // The member, on the channel, sees it turn read-only at once (channel.updated): a banner, no composer.
    await asMember.page.getByText('#launch is archived').waitFor();
    expect(await asMember.page.getByRole('textbox', { name: /Message #launch/ }).count()).toBe(0);
    expect(await asMember.page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /launch/ }).count()).toBe(0);
    // Its messages take no change: no reacting, replying, pinning, editing or deleting; saving and a link stay.
    const shown = asMember.page.locator('article.message', { hasText: 'Launch is on Friday' });
    await shown.hover();
    await shown.getByRole('button', { name: /^More actions/ }).click();
    const menu = asMember.page.getByRole('menu', { name: 'Message actions' });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Save', 'Copy link']);
    await asMember.page.keyboard.press('Escape');
    expect(await shown.getByRole('button', { name: /Add a reaction|Reply in a thread/ }).count()).toBe(0);
    expect(await shown.getByRole('button', { name: /^🎉 1/ }).isDisabled()).toBe(true);
    expect(await seriousAccessibilityViolations(asMember.page)).toEqual([]);
    await saveScreenshot(asMember.page, 'archived-channel');
    await saveScreenshot(page, 'admin-console-channels');

    const settingsLoads: string[] = [];
    page.on('request', (request) => request.url().endsWith('/v1/team.getInfo') && settingsLoads.push(request.url()));
    await dialog.getByRole('tab', { name: 'Team settings' }).click();
    await dialog.getByLabel('Team name').fill('Kestrel Works');
    await dialog.getByLabel('Who may create channels').selectOption('members');
    // What the stream brings while the admin types (here Bo's message) leaves the form as typed.
    const loadedOnOpening = settingsLoads.length;
    await sendMessage(web.t.server.ctx, { user: bo, appId: null }, { to: admin.id, text: 'Are we renaming?' });
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /Bo Brown/ }).waitFor();
    expect(await dialog.getByLabel('Team name').inputValue()).toBe('Kestrel Works');
    await dialog.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The team’s settings are saved.').waitFor();
    // The member's sidebar shows the new name at once (team.updated), without a reload.
    await asMember.page.locator('.team-name[title="Kestrel Works"]').waitFor();
    // The settings were loaded when the tab opened, and never again over what was typed.
    expect(settingsLoads).toHaveLength(loadedOnOpening);
    asMember.expectNoErrors();
    await asMember.context.close();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'admin-console-team');

    await dialog.getByRole('tab', { name: 'Apps' }).click();
    await dialog.getByText('The team has no apps yet.').waitFor();

    await dialog.getByRole('tab', { name: 'Audit log' }).click();
    const table = dialog.getByRole('region', { name: 'Audit log' }).getByRole('table');
    for (const action of ['user.roleChanged', 'user.deactivated', 'user.reactivated', 'user.passwordResetByAdmin', 'channel.archived', 'team.settingsChanged']) {
      await table.getByRole('row').filter({ hasText: action }).first().waitFor();
    }
    // What changed reads in the row: a role change says from what to what.
    await table.getByRole('row').filter({ hasText: 'user.roleChanged' }).first().getByText(/from: \w+ · to: \w+/).waitFor();
    await dialog.getByRole('tab', { name: 'Invitations' }).click();
    await dialog.getByRole('region', { name: 'Invitations' }).waitFor();
    asAdmin.expectNoErrors();
    await asAdmin.context.close();
  });

  for (const view of [
    { name: 'admin-console-dark', width: 1280, colorScheme: 'dark' as const },
    { name: 'admin-console-narrow', width: 390, colorScheme: 'light' as const },
    { name: 'admin-console-narrow-dark', width: 390, colorScheme: 'dark' as const },
  ]) {
    it(`reads well at ${view.width} px, ${view.colorScheme}`, async () => {
      const team = await web.t.f.team('Osprey');
      const admin = await web.t.f.person(team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin', timezone: '+00:00' });
      const mo = await web.t.f.person(team.id, { firstName: 'Mo', lastName: 'Member', password: PASSWORD });
      await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'general', type: 'public', members: [mo.id] });
      const watched = await signInAs(admin.email!, { width: view.width, height: 800, colorScheme: view.colorScheme });
      const { page } = watched;
      if (view.width < 600) {
        await page.goto(`${web.t.url}/`);
        await page.getByRole('button', { name: 'Show conversations' }).click();
      }
      await page.getByRole('button', { name: 'Admin console' }).click();
      await page.getByRole('dialog', { name: 'Admin console' }).getByRole('combobox', { name: 'Role of Mo Member' }).waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await saveScreenshot(page, view.name);
      watched.expectNoErrors();
      await watched.context.close();
    });
  }
});
