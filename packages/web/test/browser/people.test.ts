import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { deactivatePerson } from '../../../server/src/core/commands/people.js';
import { cliActor } from '../../../server/src/core/audit/record.js';
import { directChatKey } from '../../../server/src/store/rows/messages.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { forgetRefusal, PASSWORD, signedInPages, writeHistory } from './cast.js';
import { browserSuite } from './suite.js';

/**
 * People in the web client: a channel's members panel, a direct chat started from the roster, one's own
 * profile, and a team admin's switch in the app directory. Where someone else must see a change, they
 * watch it happen in a second browser context, live.
 */
const web = browserSuite();
const { signInAs, closeAll } = signedInPages(web);

/** A team of its own for each test: Alice the team admin, Bob and Carla, Gus a guest; #general is public. */
async function peopleCast() {
  const team = await web.t.f.team('Eastwind');
  const person = (firstName: string, lastName: string, role: 'user' | 'admin' | 'guest' = 'user') =>
    web.t.f.person(team.id, { firstName, lastName, password: PASSWORD, timezone: '+01:00', role });
  const alice = await person('Alice', 'Archer', 'admin');
  const bob = await person('Bob', 'Baker');
  const carla = await person('Carla', 'Cook');
  const gus = await person('Gus', 'Guest', 'guest');
  const { channel: general } = await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'general', type: 'public', members: [bob.id] });
  return { team, alice, bob, carla, gus, general };
}



const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const openChannel = (page: Page, name: string) => sidebar(page).getByRole('link', { name }).click();

describe.skipIf(noBrowser)('people in the web client', () => {
  it('members panel: a moderator adds and removes; a member sees it live and may only leave; a refusal shows in place', async () => {
    const { alice, bob } = await peopleCast();
    await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'ops', type: 'private', members: [bob.id] });
    const mod = await signInAs(alice.email!);
    const member = await signInAs(bob.email!);
    for (const { page } of [mod, member]) {
      await openChannel(page, 'ops');
      await page.getByRole('button', { name: '2 members' }).click();
    }
    const modDialog = mod.page.getByRole('dialog', { name: 'Members of ops' });
    const memberDialog = member.page.getByRole('dialog', { name: 'Members of ops' });
    await modDialog.getByRole('list', { name: '2 members' }).waitFor();
    expect(await modDialog.getByRole('listitem').first().textContent()).toMatch(/Alice Archer \(you\)( \(online\))?Moderator/);
    expect(await seriousAccessibilityViolations(mod.page)).toEqual([]);

    // Bob, a member of a private channel: no adding, no removing others, only leaving.
    await memberDialog.getByText('Only the moderators of this private channel add people.').waitFor();
    expect(await memberDialog.getByRole('button', { name: 'Remove Alice Archer' }).count()).toBe(0);
    await memberDialog.getByRole('button', { name: 'Leave the channel' }).waitFor();

    await modDialog.getByRole('searchbox', { name: 'Add people' }).fill('car');
    await modDialog.getByRole('button', { name: 'Add Carla Cook' }).click();
    await modDialog.getByRole('list', { name: '3 members' }).getByText('Carla Cook').waitFor();
    await memberDialog.getByRole('list', { name: '3 members' }).getByText('Carla Cook').waitFor();
    await member.page.getByRole('button', { name: '3 members' }).waitFor();

    await modDialog.getByRole('button', { name: 'Remove Carla Cook' }).click();
    await memberDialog.getByRole('list', { name: '2 members' }).waitFor();
    expect(await memberDialog.getByText('Carla Cook').count()).toBe(0);

    // In a public channel a member may add others, but a guest only a moderator: the refusal, in place.
    await member.page.keyboard.press('Escape');
    await openChannel(member.page, 'general');
    await member.page.getByRole('button', { name: '2 members' }).click();
    const generalDialog = member.page.getByRole('dialog', { name: 'Members of #general' });
    await generalDialog.getByRole('searchbox', { name: 'Add people' }).fill('gus');
    await generalDialog.getByRole('button', { name: 'Add Gus Guest' }).click();
    await generalDialog.getByRole('alert').getByText(/Gus Guest could not be added: they cannot be added here/).waitFor();
    expect(await generalDialog.getByRole('list', { name: '2 members' }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(member.page)).toEqual([]);
    // Leaving: the channel goes from Bob's sidebar, and the page opens another chat.
    await generalDialog.getByRole('button', { name: 'Leave the channel' }).click();
    await sidebar(member.page).getByRole('link', { name: 'general' }).waitFor({ state: 'detached' });
    await closeAll();
  });

  it('purpose and name: a member says what the channel is about, its moderator renames it, and everyone sees it live; a guest has no Edit', async () => {
    const { alice, bob, gus } = await peopleCast();
    await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'launch', type: 'public', purpose: 'Old plans', members: [bob.id, gus.id] });
    const member = await signInAs(bob.email!);
    const watcher = await signInAs(alice.email!);
    const guest = await signInAs(gus.email!);
    for (const { page } of [member, watcher, guest]) await openChannel(page, 'launch');
    const header = (page: Page) => page.locator('.conversation-header');
    await header(watcher.page).getByText('Old plans').waitFor();

    await member.page.getByRole('button', { name: '3 members' }).click();
    const dialog = member.page.getByRole('dialog', { name: 'Members of #launch' });
    await dialog.getByText('Old plans').waitFor();
    await dialog.getByRole('button', { name: 'Edit the purpose' }).click();
    const box = dialog.getByRole('textbox', { name: 'Purpose' });
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await box.fill('Shipping v2 on Friday');
    expect(await seriousAccessibilityViolations(member.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Shipping v2 on Friday').waitFor();
    await header(watcher.page).getByText('Shipping v2 on Friday').waitFor();
    await header(member.page).getByText('Shipping v2 on Friday').waitFor();

    // A guest reads it, with nothing to change it by.
    await guest.page.getByRole('button', { name: '3 members' }).click();
    const guestDialog = guest.page.getByRole('dialog', { name: 'Members of #launch' });
    await guestDialog.getByText('Shipping v2 on Friday').waitFor();
    await guestDialog.getByRole('list', { name: '3 members' }).waitFor();
    expect(await guestDialog.getByRole('button', { name: 'Edit the purpose' }).count()).toBe(0);
    await guest.page.keyboard.press('Escape');

    // A member does not rename it; its moderator does, and everyone's sidebar and header follow.
    expect(await dialog.getByRole('button', { name: 'Edit the name' }).count()).toBe(0);
    await watcher.page.getByRole('button', { name: '3 members' }).click();
    const modDialog = watcher.page.getByRole('dialog', { name: 'Members of #launch' });
    await modDialog.getByRole('button', { name: 'Edit the name' }).click();
    await modDialog.getByRole('textbox', { name: 'Name' }).fill('launch-v2');
    await modDialog.getByRole('button', { name: 'Save' }).click();
    await watcher.page.getByRole('dialog', { name: 'Members of #launch-v2' }).waitFor();
    await sidebar(member.page).getByRole('link', { name: /^launch-v2/ }).waitFor();
    await sidebar(guest.page).getByRole('link', { name: /^launch-v2/ }).waitFor();
    await closeAll();
  });

  it('a sender’s name opens their card: status and presence, and Message opens the direct chat', async () => {
    const { bob, carla, general } = await peopleCast();
    await web.t.testStore.store.db.updateTable('users').set({ status_text: 'On the train', status_emoji: '🚆', status_expires_at: null }).where('id', '=', carla.id).execute();
    await createChannel(web.t.server.ctx, { user: bob, appId: null }, { name: 'cards', type: 'public', members: [carla.id] });
    const channel = (await web.t.testStore.store.db.selectFrom('channels').select(['id', 'team_id']).where('name', '=', 'cards').where('team_id', '=', general.team_id).executeTakeFirstOrThrow());
    await writeHistory(web.t, channel, carla, [{ text: 'Back on Monday' }]);
    const reader = await signInAs(bob.email!);
    await openChannel(reader.page, 'cards');
    const message = reader.page.getByRole('region', { name: 'Message history' }).getByRole('article').filter({ hasText: 'Back on Monday' });
    await message.getByRole('button', { name: 'Carla Cook' }).click();
    const card = reader.page.getByRole('dialog', { name: 'Carla Cook' });
    await card.getByText('On the train').waitFor();
    expect(await seriousAccessibilityViolations(reader.page)).toEqual([]);
    await card.getByRole('button', { name: 'Message' }).click();
    await card.waitFor({ state: 'detached' });
    await reader.page.getByRole('textbox', { name: 'Message Carla Cook' }).waitFor();
    expect(decodeURIComponent(new URL(reader.page.url()).pathname)).toBe(`/c/${carla.id}`);
    await closeAll();
  });

  it('a direct chat started from the roster, by keyboard: the other person sees it live', async () => {
    const { bob, carla } = await peopleCast();
    const starter = await signInAs(bob.email!);
    const other = await signInAs(carla.email!);
    const { page } = starter;
    await sidebar(page).getByRole('button', { name: 'New direct message' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New direct message' });
    await dialog.waitFor();
    // The search has the focus: type, Tab to the first match's button, Enter.
    await page.keyboard.type('carl');
    await dialog.getByRole('listitem').filter({ hasText: 'Carla Cook' }).waitFor();
    expect(await dialog.getByRole('button', { name: /^Message / }).count()).toBe(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Carla Cook' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/c/${encodeURIComponent(carla.id)}`);
    await page.getByRole('textbox', { name: /Message Carla Cook/ }).fill('Hello Carla, a direct word');
    await page.keyboard.press('Enter');
    await sidebar(page).getByRole('link', { name: 'Carla Cook' }).waitFor();
    await sidebar(other.page).getByRole('link', { name: /Bob Baker/ }).click();
    await other.page.getByRole('region', { name: 'Message history' }).getByText('Hello Carla, a direct word').waitFor();
    await closeAll();
  });

  it('a guest meets only the people of their channels; a sender who has left is still named', async () => {
    const { alice, carla, gus } = await peopleCast();
    const { channel: guestRoom } = await createChannel(web.t.server.ctx, { user: alice, appId: null }, { name: 'guest-room', members: [gus.id, carla.id] });
    await writeHistory(web.t, guestRoom, carla, [{ text: 'Welcome aboard, Gus' }]);
    // Carla leaves the team: her message stays, and the guest no longer meets her.
    await deactivatePerson(web.t.server.ctx, cliActor, { userId: carla.id });
    const { page } = await signInAs(gus.email!);
    await openChannel(page, 'guest-room');
    const history = page.getByRole('region', { name: 'Message history' });
    await history.getByRole('article').filter({ hasText: 'Welcome aboard, Gus' }).getByRole('button', { name: 'Carla Cook' }).waitFor();
    await sidebar(page).getByRole('button', { name: 'New direct message' }).click();
    const dialog = page.getByRole('dialog', { name: 'New direct message' });
    await dialog.getByRole('listitem').filter({ hasText: 'Alice Archer' }).waitFor();
    // Bob, in #general only, is not someone the guest meets.
    expect(await dialog.getByRole('listitem').filter({ hasText: /Bob Baker|Carla Cook/ }).count()).toBe(0);
    await closeAll();
  });

  it('profile: a new name shows live in another person’s page (sidebar, sender, <user>); a new zone moves every time', async () => {
    const { team, alice, bob, general } = await peopleCast();
    // One message at 10:00 UTC, which Alice (UTC+01:00) sees at 11:00, and a direct chat between them.
    const at = Date.UTC(2026, 2, 12, 10, 0);
    await writeHistory(web.t, { id: general.id, team_id: team.id }, alice, [
      { text: 'Alice speaking', serviceml: `<serviceml>Hello from <user userId="${alice.id}">@Alice</user></serviceml>` },
    ], 60_000, at + 60_000);
    await writeHistory(web.t, { id: directChatKey(alice.id, bob.id), team_id: team.id }, alice, [{ text: 'A direct word', to_id: bob.id }], 60_000, at + 120_000);
    const mine = await signInAs(alice.email!);
    const theirs = await signInAs(bob.email!);
    await openChannel(mine.page, 'general');
    await openChannel(theirs.page, 'general');
    const time = mine.page.getByRole('region', { name: 'Message history' }).locator('time').first();
    expect(await time.textContent()).toMatch(/11:00/);
    await sidebar(theirs.page).getByRole('link', { name: /^Alice Archer/ }).waitFor();

    const { page } = mine;
    await page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Your profile' });
    await dialog.waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // A blank name is refused by the server, under the field.
    await dialog.getByLabel('First name').fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').getByText(/firstName/).waitFor();
    expect(await dialog.getByLabel('First name').getAttribute('aria-invalid')).toBe('true');
    forgetRefusal(mine, 400);

    await dialog.getByLabel('First name').fill('Alicia');
    await dialog.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await dialog.getByText('Times are shown in Asia/Tokyo, now UTC+09:00.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Your profile: Alicia Archer Asia\/Tokyo · \d\d:\d\d/ }).waitFor();
    expect(await time.textContent()).toMatch(/(07|19):00/);

    // Bob's page, without a reload: the sender's name and the <user> mention.
    const history = theirs.page.getByRole('region', { name: 'Message history' });
    await history.getByText('Alicia Archer').first().waitFor();
    await history.locator('.sml-mention', { hasText: 'Alicia Archer' }).waitFor();
    await sidebar(theirs.page).getByRole('link', { name: /^Alicia Archer/ }).waitFor();
    await closeAll();
  });

  it('apps directory: a team admin disables an app for the team and enables it again; others see it live and have no switch', async () => {
    const { team, alice, bob } = await peopleCast();
    const app = await web.t.f.app(team.id, alice.id, { name: 'Weatherly', description: 'Forecasts' });
    await web.t.f.install(app.id, bob.id);
    const admin = await signInAs(alice.email!);
    const person = await signInAs(bob.email!);
    for (const { page } of [admin, person]) await sidebar(page).getByRole('link', { name: 'App directory' }).click();
    const card = (page: Page) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Weatherly' }) });
    await card(person.page).getByText('Installed', { exact: true }).waitFor();
    expect(await person.page.getByRole('button', { name: /for the team$/ }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(admin.page)).toEqual([]);

    await card(admin.page).getByRole('button', { name: 'Disable for the team' }).click();
    await card(admin.page).getByText('Disabled by the team').waitFor();
    await card(person.page).getByText('Disabled by the team').waitFor();

    // The server refuses the switch to anyone but a team admin, whatever the page shows.
    const refused = await person.page.evaluate(async (id) => {
      const response = await fetch('/v1/apps.enableForTeam', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appId: id }) });
      return { status: response.status, body: (await response.json()) as { error: string } };
    }, app.id);
    expect(refused).toMatchObject({ status: 403, body: { error: 'PermissionDenied' } });
    forgetRefusal(person, 403);

    await card(admin.page).getByRole('button', { name: 'Enable for the team' }).click();
    await card(person.page).getByText('Installed', { exact: true }).waitFor();
    await closeAll();
  });
});
