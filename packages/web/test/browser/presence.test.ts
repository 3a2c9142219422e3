import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PRESENCE_LEASE_MS } from '../../../server/src/api/stream/presence.js';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { directChatKey } from '../../../server/src/store/rows/messages.js';
import { createLog } from '../../../server/src/log.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { captureLog } from '../../../server/test/helpers/logs.js';
import { PASSWORD, settledAtBottom, signInPage, writeHistory } from './cast.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * Presence in the web client, watched from a second browser context: dots on the avatars of the members
 * panel, the sidebar's direct chats and one's profile; a person whose page closes goes away once their
 * hold lapses (the server's clock is moved and its renewal run by the test, never waited for).
 */
let clock = Date.now();
const serverLog = captureLog();
const suite = browserSuite({ server: { now: () => clock, log: createLog({ logLevel: 'debug' }, serverLog.destination) } });

/** Alice and Bob, who will be online, and Carla, who never signs in, in a channel "design"; a direct chat between Alice and Bob. */
async function presenceCast() {
  const { t } = suite;
  const team = await t.f.team('Eastwind');
  const person = (firstName: string, lastName: string) => t.f.person(team.id, { firstName, lastName, password: PASSWORD });
  const alice = await person('Alice', 'Archer');
  const bob = await person('Bob', 'Baker');
  const carla = await person('Carla', 'Cook');
  await createChannel({ ...t.server.ctx, now: () => clock - 3_600_000 }, { user: alice, appId: null }, { name: 'design', purpose: 'Sketches and reviews', type: 'public', members: [bob.id, carla.id] });
  await writeHistory(t, { id: directChatKey(alice.id, bob.id), team_id: team.id }, alice, [{ text: 'Are you around?', to_id: bob.id }], 60_000, clock);
  return { alice, bob, carla };
}

const membersPanel = async (page: Page) => {
  await page.getByRole('link', { name: 'design' }).click();
  await page.getByRole('button', { name: '3 members' }).click();
  return page.getByRole('dialog', { name: 'Members of #design' });
};
/** A member's row, as a screen reader names the person ("Alice Archer (online)"), with the dot that shows it. */
const member = (panel: Locator, name: string, presence: 'online' | 'away') =>
  panel.getByRole('listitem').filter({ hasText: `${name} (${presence})` }).locator(`.presence-${presence}`);
/** The sidebar's direct chat with someone, named with their presence (and its unread count), and its dot. */
const directEntry = (page: Page, name: string, presence: 'online' | 'away') =>
  page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: new RegExp(`^${name} \\(${presence}\\)`) }).locator(`.presence-${presence}`);

describe.skipIf(noBrowser)('presence in the web client', () => {
  it('B sees A online in the members panel and the sidebar, and away once A’s page has closed and the hold lapsed', async () => {
    const { t, browser } = suite;
    const { alice, bob } = await presenceCast();
    const b = await signInPage(browser, t, bob.email!);
    const a = await signInPage(browser, t, alice.email!);
    // A's stream is open once her page knows she is online (her own profile says so).
    await a.page.getByRole('button', { name: /^Your profile: Alice Archer/ }).click();
    await a.page.getByRole('dialog', { name: 'Your profile' }).getByText('Alice Archer (online)').waitFor();
    await a.page.keyboard.press('Escape');
    // Arrivals are announced in batches: this one now.
    await t.server.gateway.presence.holdArrivals();

    const panel = await membersPanel(b.page);
    await member(panel, 'Alice Archer', 'online').waitFor();
    await member(panel, 'Bob Baker (you)', 'online').waitFor();
    await member(panel, 'Carla Cook', 'away').waitFor();
    expect(await seriousAccessibilityViolations(b.page)).toEqual([]);
    await screenshots(b.page, 'members-presence');
    await b.page.keyboard.press('Escape');
    await directEntry(b.page, 'Alice Archer', 'online').waitFor();

    await a.context.close();
    // The server has seen her stream close (the client's side closes first), and logs it.
    await serverLog.waitFor((line) => line.msg === 'a stream closed' && line.userId === alice.id && line.open === 0);
    await t.server.gateway.presence.renew();
    // Within the lease she is still online (a reload is not a departure)…
    await directEntry(b.page, 'Alice Archer', 'online').waitFor();
    clock += PRESENCE_LEASE_MS + 1;
    await t.server.gateway.presence.renew();
    // …and away once it lapsed.
    await directEntry(b.page, 'Alice Archer', 'away').waitFor();
    const again = await membersPanel(b.page);
    await member(again, 'Alice Archer', 'away').waitFor();
    await member(again, 'Bob Baker (you)', 'online').waitFor();
    b.expectNoErrors();
    a.expectNoErrors();
  });
});

/** The open members panel, light and dark. */
async function screenshots(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await settledAtBottom(page);
    await saveScreenshot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
