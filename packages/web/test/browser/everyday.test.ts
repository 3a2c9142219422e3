import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel, removeChannelMembers } from '../../../server/src/core/commands/channels.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { noBrowser, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { PASSWORD, settledAtBottom, signInPage, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * What the team's trial found wrong in everyday use (issue 23, "Defects seen in the trial"), each in
 * Chromium: bots named to everyone, read markers that do not flood, sending while offline, being removed
 * from the open channel, Ctrl+K on the open chat, the composer's role, and the layout's gaps and overlaps.
 */
const web = webSuite();

const signInAs = (email: string, team?: string, view?: Parameters<typeof signInPage>[4]): Promise<WatchedPage> => signInPage(web.browser, web.t, email, team, view);
const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const composer = (page: Page, name: RegExp) => page.getByRole('textbox', { name });
const db = () => web.t.testStore.store.db;

async function openChannel(page: Page, name: string) {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe.skipIf(noBrowser)('everyday messaging: the trial’s defects', () => {
  it('names an app’s bot to someone who never installed its app', async () => {
    const app = await web.t.f.app(web.cast.team.id, web.cast.alice.id, { name: 'Buildbot' });
    const { botUserId } = await web.t.f.bot(app.id);
    await web.t.f.install(app.id, web.cast.alice.id);
    const bot = await db().selectFrom('users').selectAll().where('id', '=', botUserId).executeTakeFirstOrThrow();
    await writeHistory(web.t, web.cast.channel, bot, [{ text: 'Build 812 passed', app_id: app.id }]);

    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'general');
    const message = history(bob.page).getByRole('article', { name: /^Buildbot Bot/ });
    await message.getByText('Build 812 passed').waitFor();
    expect(await history(bob.page).getByRole('article', { name: /^Someone/ }).count()).toBe(0);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('sends read markers at most every few seconds during a burst, ending at the newest, with no stale unread count', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'busy', members: [web.cast.bob.id] });
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'busy');
    const markers: Request[] = [];
    const refused: number[] = [];
    bob.page.on('request', (request) => {
      if (request.url().endsWith('/v1/chat.markRead')) markers.push(request);
    });
    bob.page.on('response', (response) => {
      if (response.url().endsWith('/v1/chat.markRead') && response.status() !== 200) refused.push(response.status());
    });

    const started = Date.now();
    let last = '';
    for (let i = 1; i <= 40; i++) last = (await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: `Burst message ${i}` })).message.uid;
    await history(bob.page).getByText('Burst message 40', { exact: true }).waitFor();
    // Looked for among the requests seen: the marker of the newest may go the moment it is drawn, before a
    // wait for the next request begins (it did in a loaded CI run, and the wait saw no more).
    const newestMarker = () => markers.find((request) => request.postDataJSON()?.uid === last);
    await expect.poll(() => newestMarker() !== undefined, { timeout: 30_000 }).toBe(true);
    await newestMarker()!.response();
    const elapsed = Date.now() - started;

    // One marker every three seconds at most (and the first at once): never one per message.
    expect(markers.length).toBeLessThanOrEqual(Math.floor(elapsed / 3_000) + 1);
    expect(markers.length).toBeLessThan(40);
    expect(refused).toEqual([]);
    // The last marker's chat.read frame leaves no count on the open channel.
    await bob.page.getByRole('link', { name: 'busy' }).getByLabel(/unread/).waitFor({ state: 'detached' });
    const read = await db().selectFrom('chat_reads').selectAll().where('user_id', '=', web.cast.bob.id).where('chat_key', '=', channel.id).executeTakeFirst();
    expect(read?.read_uid).toBe(last);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('keeps a message sent offline as pending, sends it once with the same id when the connection is back, and lets another be cancelled', async () => {
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(alice.page, 'general');
    await openChannel(bob.page, 'general');
    const ids: string[] = [];
    alice.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/chat.sendFromComposer') && request.postDataJSON()?.text === 'Sent from the train') ids.push(request.postDataJSON().id);
    });

    await alice.context.setOffline(true);
    await composer(alice.page, /Message #general/).fill('Sent from the train');
    await alice.page.keyboard.press('Enter');
    const pending = alice.page.getByRole('list', { name: 'Messages not sent yet' });
    await pending.getByRole('listitem').filter({ hasText: 'Sent from the train' }).getByText('Not sent yet: waiting for the connection').waitFor();
    await composer(alice.page, /Message #general/).fill('Never mind that');
    await alice.page.keyboard.press('Enter');
    const second = pending.getByRole('listitem').filter({ hasText: 'Never mind that' });
    await second.getByText('Not sent yet: waiting for the connection').waitFor();
    expect(await alice.page.getByText(/Failed to fetch|could not be reached/).count()).toBe(0);
    expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
    await saveScreenshot(alice.page, 'pending-message-light');
    await second.getByRole('button', { name: 'Cancel the message “Never mind that”' }).click();
    await second.waitFor({ state: 'detached' });

    await alice.context.setOffline(false);
    await history(bob.page).getByText('Sent from the train').waitFor();
    await history(alice.page).getByText('Sent from the train').waitFor();
    await pending.waitFor({ state: 'detached' });
    expect(await history(alice.page).getByText('Sent from the train').count()).toBe(1);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(1);
    const stored = await db().selectFrom('messages').select('text').where('chat_key', '=', web.cast.channel.id).where('text', 'in', ['Sent from the train', 'Never mind that']).execute();
    expect(stored.map((row) => row.text)).toEqual(['Sent from the train']);
    // Offline, Chromium logs each request that could not go out; nothing else may be logged.
    expect(alice.errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|WebSocket/.test(error))).toEqual([]);
    bob.expectNoErrors();
    await alice.context.close();
    await bob.context.close();
  });

  it('holds the messages the server finds too fast and sends them by itself, in the order written: none is lost', async () => {
    const { alice: writer, bob } = web.cast;
    const { channel } = await createChannel(web.t.server.ctx, { user: writer, appId: null }, { name: 'rapid', members: [bob.id] });
    const alice = await signInAs(writer.email!, 'Northwind');
    let tooFast = 0; // logged when the run is too slow to go past the burst (the held path then goes untested)
    alice.page.on('response', (response) => {
      if (response.url().endsWith('/v1/chat.sendFromComposer') && response.status() === 429) tooFast++;
    });
    await openChannel(alice.page, 'rapid');
    const box = composer(alice.page, /Message #rapid/);
    // Past the burst a person may send to one chat (10): the server answers 429 to the rest, for a while.
    const texts = Array.from({ length: 14 }, (_, i) => `rapid ${i + 1}`);
    for (const text of texts) {
      await box.fill(text);
      await alice.page.keyboard.press('Enter');
    }
    await history(alice.page).getByText('rapid 14', { exact: true }).waitFor();
    await alice.page.getByRole('list', { name: 'Messages not sent yet' }).waitFor({ state: 'detached' });
    // Each stored once, none lost. (The order holds among the held ones; one sent while the server's
    // budget refilled may land before a held one, so the whole order is not asserted.)
    const stored = await db().selectFrom('messages').select('text').where('chat_key', '=', channel.id).orderBy('uid').execute();
    expect(stored.map((row) => row.text).sort()).toEqual([...texts].sort());
    if (tooFast === 0) console.warn('the sends never went past the burst: the held path went untested this run');
    expect(await box.inputValue()).toBe('');
    expect(await alice.page.getByText(/limited to/).count()).toBe(0);
    await alice.context.close();
  });

  it('leaves the person where they are when a message sent offline goes out after they moved to another chat', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'far-back', members: [web.cast.bob.id] });
    const written = await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.bob, Array.from({ length: 300 }, (_, i) => ({ text: `Far back ${i + 1}` })));
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    // Opened at a link far back: newer pages are still to load, so sending would open the chat at its end.
    await alice.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}?m=${written[49]!.uid}`);
    await history(alice.page).locator('.message.highlighted').filter({ hasText: 'Far back 50' }).waitFor();

    await alice.context.setOffline(true);
    await composer(alice.page, /Message #far-back/).fill('Answering from the tunnel');
    await alice.page.keyboard.press('Enter');
    await alice.page.getByRole('list', { name: 'Messages not sent yet' }).getByText('Answering from the tunnel').waitFor();
    await openChannel(alice.page, 'general');
    const delivered = alice.page.waitForResponse((response) => response.url().endsWith('/v1/chat.sendFromComposer') && response.ok());
    await alice.context.setOffline(false);
    await delivered;
    await expect.poll(async () => (await db().selectFrom('messages').select('text').where('chat_key', '=', channel.id).where('text', '=', 'Answering from the tunnel').execute()).length).toBe(1);
    // The answer handled (two frames later), Alice is still in #general.
    await alice.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(new URL(alice.page.url()).pathname).toBe(`/c/${encodeURIComponent(web.cast.channel.id)}`);
    await alice.page.getByRole('heading', { name: 'general', level: 1 }).waitFor();
    await alice.context.close();
  });

  it('tells a person removed from the channel they are viewing, and closes it', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'standup', members: [web.cast.bob.id] });
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'standup');
    // Alice writes twice: Bob's marker goes for the first, and is held a few seconds for the second.
    const markers: Array<number | undefined> = [];
    // Only the markers for #standup: once it closes, Bob's view moves on and may mark another chat read.
    const forStandup = (request: Request) => new URL(request.url()).pathname === '/v1/chat.markRead' && (request.postData() ?? '').includes(channel.id);
    bob.page.on('request', (request) => {
      if (!forStandup(request)) return;
      const at = markers.push(undefined) - 1;
      request.response().then(
        (response) => (markers[at] = response?.status()),
        () => (markers[at] = -1),
      );
    });
    const firstMarker = bob.page.waitForResponse((response) => forStandup(response.request()));
    const alice = { user: web.cast.alice, appId: null };
    await sendMessage(web.t.server.ctx, alice, { to: channel.id, text: 'Standup in five' });
    expect((await firstMarker).status()).toBe(200);
    await sendMessage(web.t.server.ctx, alice, { to: channel.id, text: 'Moved to the other room' });
    await bob.page.getByText('Moved to the other room').waitFor();
    await removeChannelMembers(web.t.server.ctx, alice, { channelId: channel.id, members: [web.cast.bob.id] });
    await bob.page.getByText('You are no longer a member of #standup.').waitFor();
    // The held marker is dropped as the view closes, not sent for a channel Bob is no longer in (refused).
    await expect.poll(() => markers.includes(undefined)).toBe(false);
    expect(markers.filter((status) => status !== 200)).toEqual([]);
    await bob.page.getByRole('heading', { name: 'standup', level: 1 }).waitFor({ state: 'detached' });
    expect(await composer(bob.page, /Message #standup/).count()).toBe(0);
    expect(new URL(bob.page.url()).pathname).not.toContain(encodeURIComponent(channel.id));
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('puts the focus in the composer when Ctrl+K chooses the chat already open; the composer is a multi-line textbox with autocomplete', async () => {
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'general');
    const box = composer(bob.page, /Message #general/);
    expect(await box.evaluate((element) => [element.tagName, element.getAttribute('role'), element.getAttribute('aria-autocomplete')])).toEqual(['TEXTAREA', null, 'list']);
    await bob.page.getByRole('heading', { name: 'general', level: 1 }).click();
    await bob.page.keyboard.press('Control+k');
    await bob.page.getByRole('combobox', { name: 'Conversation name' }).fill('gener');
    await bob.page.keyboard.press('Enter');
    await bob.page.getByRole('dialog', { name: 'Jump to a conversation' }).waitFor({ state: 'detached' });
    await box.and(bob.page.locator(':focus')).waitFor();

    // `@` opens the people it may name, tied to the textbox by aria-controls.
    await box.fill('@Ali');
    const list = bob.page.getByRole('listbox', { name: 'People' });
    await list.waitFor();
    expect(await box.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
    // In a channel @here (and @channel) come after the people; picked, the word goes into the text.
    await box.fill('@her');
    await list.getByRole('option', { name: /^@here/ }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('@here ');
    // A `:` word lists emoji by shortcode (their data fetched then); picked, the emoji goes into the text.
    await box.fill('great :tad');
    const emoji = bob.page.getByRole('listbox', { name: 'Emoji' });
    await emoji.getByRole('option', { name: /:tada:/ }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('great 🎉 ');
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('lays consecutive messages out evenly, keeps the connection banner off the channel description and the sidebar name whole', async () => {
    const long = await web.t.f.person(web.cast.team.id, { firstName: 'Maximiliana', lastName: 'Featherstonehaugh', password: PASSWORD });
    const { channel } = await createChannel(web.t.server.ctx, { user: long, appId: null }, { name: 'layout', purpose: 'Where the layout is looked at', members: [web.cast.bob.id] });
    const day = Date.UTC(2026, 2, 12, 9);
    await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, long, [
      { text: 'First line of a run of messages.' },
      { text: 'Second, a minute later.' },
      { text: 'Third, still the same sender.' },
      { text: 'Fourth and last.' },
    ], 60_000, day);
    for (const colorScheme of ['light', 'dark'] as const) {
      const watched = await signInAs(long.email!, undefined, { colorScheme });
      const { page } = watched;
      // The stream's socket goes through the test, which can cut it and refuse the next ones.
      let refuse = false;
      const sockets: Array<{ close(): Promise<void> }> = [];
      await page.routeWebSocket(/\/api\/stream/, (socket) => {
        if (refuse) return void socket.close();
        socket.connectToServer();
        sockets.push(socket);
      });
      await page.reload();
      await openChannel(page, 'layout');
      await history(page).getByText('Fourth and last.').waitFor();
      await settledAtBottom(page);

      const rows = await history(page).getByRole('article').evaluateAll((articles) => articles.map((article) => article.getBoundingClientRect().height));
      const continued = rows.slice(1);
      expect(continued).toHaveLength(3);
      // One line each, all alike: no room left for hidden buttons.
      expect(Math.max(...continued) - Math.min(...continued)).toBeLessThan(1);
      expect(Math.max(...continued)).toBeLessThan(30);
      const name = page.locator('.me-name');
      expect(await name.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1)).toBe(true);

      // On a phone, the time a continued row shows in its gutter stays on the screen and clear of its text.
      const viewport = page.viewportSize()!;
      await page.setViewportSize({ width: 390, height: 800 });
      // The sidebar slides away over the conversation first.
      await expect.poll(() => page.locator('.sidebar').evaluate((element) => element.getBoundingClientRect().right)).toBeLessThanOrEqual(0);
      const second = history(page).getByRole('article').filter({ hasText: 'Second, a minute later.' });
      await second.hover({ position: { x: 30, y: 8 }, force: true });
      const time = second.locator('.message-hover-time');
      await time.waitFor({ state: 'visible' });
      const [timeBox, textBox] = [await time.boundingBox(), await second.getByText('Second, a minute later.').boundingBox()];
      expect(timeBox!.x).toBeGreaterThanOrEqual(0);
      expect(timeBox!.x + timeBox!.width).toBeLessThanOrEqual(textBox!.x);
      await page.setViewportSize(viewport);

      refuse = true;
      for (const socket of sockets) await socket.close();
      const banner = page.getByRole('status').filter({ hasText: 'Reconnecting…' });
      await banner.waitFor();
      const [bannerBox, purposeBox] = [await banner.boundingBox(), await page.getByText('Where the layout is looked at').boundingBox()];
      expect(bannerBox!.y).toBeGreaterThanOrEqual(purposeBox!.y + purposeBox!.height);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await saveScreenshot(page, `consecutive-messages-${colorScheme}`);
      expect(watched.errors.filter((error) => !/WebSocket/.test(error))).toEqual([]);
      await watched.context.close();
    }
  });

  it('keeps the notification card whole above the sidebar’s foot and toasts off the composer (1280×800)', async () => {
    // An admin: the sidebar's foot at its tallest (Admin console, Invite people, Sign out).
    const admin = await web.t.f.person(web.cast.team.id, { firstName: 'Ada', lastName: 'Admin', password: PASSWORD, role: 'admin' });
    const { channel } = await createChannel(web.t.server.ctx, { user: admin, appId: null }, { name: 'footing', purpose: 'Where the card and the toasts go', members: [web.cast.bob.id] });
    await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.bob, Array.from({ length: 30 }, (_, index) => ({ text: `Note ${index + 1}` })));
    const watched = await signInAs(admin.email!, undefined, { width: 1280, height: 800 });
    const { page } = watched;
    await openChannel(page, 'footing');
    await history(page).getByText('Note 30').waitFor();

    const card = page.getByRole('region', { name: 'Notifications' });
    const [cardBox, listBox, footBox] = [await card.boundingBox(), await page.locator('.sidebar-scroll').boundingBox(), await page.locator('.sidebar-footer').boundingBox()];
    expect(cardBox!.y).toBeGreaterThanOrEqual(listBox!.y + listBox!.height - 1);
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(footBox!.y + 1);
    // Each of its buttons is whole and nothing lies over it.
    for (const button of await card.getByRole('button').all()) {
      expect(await button.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return [[box.left + 2, box.top + 2], [box.right - 2, box.bottom - 2]].every(([x, y]) => element.contains(document.elementFromPoint(x, y)));
      })).toBe(true);
    }

    // A toast (saving a message) leaves the composer clear.
    const note = history(page).getByRole('article').filter({ hasText: 'Note 30' });
    await note.hover();
    await note.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Save', exact: true }).click();
    const toast = page.locator('.toast').filter({ hasText: 'Saved' });
    await toast.waitFor();
    const [toastBox, composerBox] = [await toast.boundingBox(), await page.locator('.composer').boundingBox()];
    const apart = toastBox!.y + toastBox!.height <= composerBox!.y || toastBox!.x >= composerBox!.x + composerBox!.width;
    expect(apart).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'notification-card-1280x800');
    watched.expectNoErrors();
    await watched.context.close();
  });
});
