import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { noBrowser, seriousAccessibilityViolations, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { scrollHistory, settledAtBottom, signInPage, writeHistory } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Reading in the web client (issue 23, "Reading" and "Formatting"): Markdown rendered safely with code
 * highlighted on demand, Ctrl/Cmd+B and +I, drafts kept per chat across reloads, the "New messages"
 * line where the person left off, "Jump to newest", and one's own message always brought into view.
 */
const web = webSuite();

const signInAs = (email: string, team?: string, view?: Parameters<typeof signInPage>[4]): Promise<WatchedPage> => signInPage(web.browser, web.t, email, team, view);
const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const composer = (page: Page, name: RegExp) => page.getByRole('textbox', { name });

async function openChannel(page: Page, name: string) {
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

const MARKDOWN = [
  'Release **today**, *maybe* ~~tomorrow~~, run `npm test` first <b>not bold</b> [click](javascript:alert(1)) https://example.com/notes',
  '> quoted from the plan',
  '- one',
  '- two',
  '```js',
  'const answer = 42; // the answer',
  '```',
].join('\n');

/**
 * Until Bob's read marker of the channel is on the server at its newest message: the list's counts,
 * reloaded (a stream that fell behind under load), start from the server's marker, and would count what
 * the page had read but not yet sent.
 */
async function serverReadUpTo(channelId: string) {
  const db = web.t.testStore.store.db;
  const newest = await db.selectFrom('messages').select('uid').where('chat_key', '=', channelId).orderBy('uid', 'desc').limit(1).executeTakeFirstOrThrow();
  await expect
    .poll(async () => (await db.selectFrom('chat_reads').select('read_uid').where('user_id', '=', web.cast.bob.id).where('chat_key', '=', channelId).executeTakeFirst())?.read_uid)
    .toBe(newest.uid);
}

describe.skipIf(noBrowser)('reading in the web client', () => {
  it('renders Markdown without raw HTML or script links, and highlights code with a script loaded only then', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'formatting', members: [web.cast.bob.id] });
    await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.alice, [{ text: 'Plain first, nothing to format.' }]);
    // Light at 1280 px; dark on a phone, 390 px, where the chat the latest message went to opens first.
    for (const colorScheme of ['light', 'dark'] as const) {
      const bob = await signInAs(web.cast.bob.email!, undefined, colorScheme === 'light' ? { colorScheme } : { colorScheme, width: 390, height: 800 });
      const scripts: string[] = [];
      bob.page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
      if (colorScheme === 'light') await openChannel(bob.page, 'formatting');
      else await bob.page.getByRole('heading', { name: 'formatting', level: 1 }).waitFor();
      await history(bob.page).getByText('Plain first, nothing to format.').waitFor();
      // The first time: the highlighter is fetched only once a code block is shown.
      if (colorScheme === 'light') {
        expect(scripts.some((path) => path.includes('highlight'))).toBe(false);
        await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: MARKDOWN });
      }
      const message = history(bob.page).getByRole('article').filter({ hasText: 'quoted from the plan' });
      await message.locator('code.hljs .hljs-keyword').waitFor();
      if (colorScheme === 'light') expect(scripts.some((path) => path.includes('highlight'))).toBe(true);
      const text = message.locator('.markdown');
      expect(await text.locator('strong').textContent()).toBe('today');
      expect(await text.locator('em').textContent()).toBe('maybe');
      expect(await text.locator('s').textContent()).toBe('tomorrow');
      expect(await text.locator(':not(pre) > code').textContent()).toBe('npm test');
      expect(await text.locator('blockquote').textContent()).toContain('quoted from the plan');
      expect(await text.locator('li').allTextContents()).toEqual(['one', 'two']);
      // Raw HTML stays text; a javascript: link is no link; a URL in the text is one, leaving the page.
      expect(await text.locator('b').count()).toBe(0);
      await text.getByText('<b>not bold</b>').waitFor();
      expect(await text.locator('a[href^="javascript"]').count()).toBe(0);
      const link = text.getByRole('link', { name: 'https://example.com/notes' });
      expect(await link.getAttribute('href')).toBe('https://example.com/notes');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await settledAtBottom(bob.page);
      await saveScreenshot(bob.page, colorScheme === 'light' ? 'markdown-light' : 'markdown-390-dark');
      bob.expectNoErrors();
      await bob.context.close();
    }
  });

  it('wraps the selection with Ctrl+B and Ctrl+I, and keeps each chat’s draft across a reload', async () => {
    await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'elsewhere', members: [] });
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    await openChannel(alice.page, 'general');
    const box = composer(alice.page, /Message #general/);
    await box.fill('make this bold');
    await box.press('Control+a');
    await box.press('Control+b');
    expect(await box.inputValue()).toBe('**make this bold**');
    await box.press('End');
    await box.pressSequentially(' and ');
    await box.press('Control+i');
    await box.pressSequentially('this');
    expect(await box.inputValue()).toBe('**make this bold** and *this*');

    // The draft outlives a reload, and stays with its chat.
    await alice.page.reload();
    await openChannel(alice.page, 'general');
    expect(await box.inputValue()).toBe('**make this bold** and *this*');
    await openChannel(alice.page, 'elsewhere');
    expect(await composer(alice.page, /Message #elsewhere/).inputValue()).toBe('');
    // Away from it, the sidebar marks the chat that holds a draft (not the one open, whose box shows it).
    const sidebar = alice.page.getByRole('navigation', { name: 'Conversations' });
    const draftMark = (name: string) => sidebar.getByRole('link', { name: new RegExp(`^${name}`) }).getByRole('img', { name: 'draft' });
    await draftMark('general').waitFor();
    expect(await draftMark('elsewhere').count()).toBe(0);
    await openChannel(alice.page, 'general');
    expect(await box.inputValue()).toBe('**make this bold** and *this*');
    await box.press('Enter');
    await openChannel(alice.page, 'elsewhere');
    await sidebar.getByRole('link', { name: /^general/ }).waitFor();
    expect(await draftMark('general').count()).toBe(0);
    await openChannel(alice.page, 'general');
    const sent = history(alice.page).getByRole('article').filter({ hasText: 'make this bold' });
    expect(await sent.locator('strong').textContent()).toBe('make this bold');
    expect(await sent.locator('em').textContent()).toBe('this');
    // Sent: nothing left to restore.
    await alice.page.reload();
    await openChannel(alice.page, 'general');
    expect(await box.inputValue()).toBe('');
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('offers “Jump to newest” when scrolled up after the chat opened again at a link in it', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'relinked', members: [web.cast.bob.id] });
    const written = await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.alice, Array.from({ length: 300 }, (_, i) => ({ text: `Relinked ${i + 1}` })));
    await web.t.testStore.store.db
      .insertInto('pins')
      .values({ message_uid: written[289]!.uid, chat_key: channel.id, team_id: web.cast.team.id, pinned_by: web.cast.alice.id, pinned_at: Date.now() })
      .execute();
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'relinked');
    await history(bob.page).getByText('Relinked 300', { exact: true }).waitFor();
    // The chat opens again at a pinned message near its end, from its Pinned list: the history anew.
    await bob.page.getByRole('button', { name: 'Pinned messages' }).click();
    await bob.page.getByRole('dialog', { name: 'Pinned in #relinked' }).getByRole('link', { name: /Relinked 290/ }).click();
    await history(bob.page).locator('.message.highlighted').filter({ hasText: 'Relinked 290' }).waitFor();
    await history(bob.page).getByText('Relinked 300', { exact: true }).waitFor({ state: 'attached' });

    const jump = bob.page.getByRole('button', { name: 'Jump to newest' });
    await scrollHistory(bob.page, 'top');
    await jump.waitFor();
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await inView(bob.page, 'Relinked 300');
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('draws “New messages” where the person left off, offers “Jump to newest” when scrolled up, and brings one’s own message into view', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'long-read', members: [web.cast.bob.id] });
    const chat = { id: channel.id, team_id: web.cast.team.id };
    await writeHistory(web.t, chat, web.cast.alice, Array.from({ length: 60 }, (_, i) => ({ text: `Older message ${i + 1}` })), 60_000, Date.now() - 3_600_000);
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'long-read');
    // Never read: it opens at its first message, under the line, and is read to the newest.
    await history(bob.page).getByRole('listitem').filter({ has: bob.page.getByRole('separator', { name: 'New messages' }) }).getByText('Older message 1', { exact: true }).waitFor();
    // Read: Bob's marker reaches the newest (on the server too: see serverReadUpTo), then he goes elsewhere while Alice writes.
    await bob.page.getByRole('link', { name: 'long-read' }).getByLabel(/unread/).waitFor({ state: 'detached' });
    await serverReadUpTo(channel.id);
    await openChannel(bob.page, 'general');
    for (let i = 1; i <= 3; i++) await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: `While you were away ${i}` });
    await bob.page.getByRole('link', { name: 'long-read' }).getByLabel('3 unread').waitFor();

    await openChannel(bob.page, 'long-read');
    const line = history(bob.page).getByRole('separator', { name: 'New messages' });
    await line.waitFor();
    const [lineBox, firstNew] = [await line.boundingBox(), await history(bob.page).getByText('While you were away 1').boundingBox()];
    expect(lineBox!.y).toBeLessThan(firstNew!.y);
    expect(await history(bob.page).getByRole('listitem').filter({ has: bob.page.getByRole('separator', { name: 'New messages' }) }).getByText('While you were away 1').count()).toBe(1);

    // Scrolled up: the way back down is offered, and taken.
    const jump = bob.page.getByRole('button', { name: 'Jump to newest' });
    await scrollHistory(bob.page, 'top');
    await jump.waitFor();
    expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
    await saveScreenshot(bob.page, 'jump-to-newest-light');
    await jump.click();
    await jump.waitFor({ state: 'detached' });
    await inView(bob.page, 'While you were away 3');

    // Scrolled up again, Bob sends: his message comes into view.
    await scrollHistory(bob.page, 'top');
    await jump.waitFor();
    await composer(bob.page, /Message #long-read/).fill('Catching up now');
    await bob.page.keyboard.press('Enter');
    await jump.waitFor({ state: 'detached' });
    await inView(bob.page, 'Catching up now');
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('puts an emoji from the composer’s picker at the caret, and sends nothing on Enter in the picker’s search', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'emoji-pick', members: [web.cast.bob.id] });
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    await openChannel(alice.page, 'emoji-pick');
    const box = composer(alice.page, /Message #emoji-pick/);
    await box.fill('Ship it today');
    await box.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(8, 8));
    const picker = alice.page.getByRole('dialog', { name: 'Insert an emoji' });
    const search = picker.getByRole('searchbox', { name: 'Search emoji' });

    // Enter in the search with nothing found: the dialog stays, and the message is not sent.
    await alice.page.getByRole('button', { name: 'Insert an emoji' }).click();
    await search.fill('no such emoji at all');
    await search.press('Enter');
    await picker.getByText(/No emoji match/).waitFor();
    // One Escape closes it, search text and all.
    await search.fill('tada');
    await search.press('Escape');
    await picker.waitFor({ state: 'detached' });
    // Enter picks the emoji named as typed, first among those tagged so (astronauts are tagged "rocket").
    await alice.page.getByRole('button', { name: 'Insert an emoji' }).click();
    await search.fill('rocket');
    await picker.getByRole('button', { name: 'rocket', exact: true }).waitFor();
    await search.press('Enter');
    await picker.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('Ship it 🚀today');
    // The focus is back in the box, the caret after the emoji.
    expect(await box.evaluate((element: HTMLTextAreaElement) => [element === document.activeElement, element.selectionStart])).toEqual([true, 10]);
    await alice.page.keyboard.type(' ');
    await box.press('Enter');
    await history(alice.page).getByText('Ship it 🚀 today').waitFor();
    const sent = await web.t.testStore.store.db.selectFrom('messages').select('text').where('chat_key', '=', channel.id).execute();
    expect(sent).toEqual([{ text: 'Ship it 🚀 today' }]);
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('marks a chat unread from a message: the sidebar counts from it, the “New messages” line moves to it, and it stays unread until left', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'mark-unread', members: [web.cast.bob.id] });
    const points = await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.alice, [1, 2, 3, 4, 5].map((n) => ({ text: `Point ${n}` })), 60_000, Date.now() - 60_000);
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'mark-unread');
    await serverReadUpTo(channel.id);
    const badge = bob.page.getByRole('link', { name: 'mark-unread' }).getByLabel(/unread/);
    const third = history(bob.page).getByRole('article').filter({ hasText: 'Point 3' });
    await third.hover();
    await third.getByRole('button', { name: /^More actions/ }).click();
    await bob.page.getByRole('menuitem', { name: 'Mark unread' }).click();
    await badge.and(bob.page.getByLabel('3 unread')).waitFor();
    const line = history(bob.page).getByRole('separator', { name: 'New messages' });
    await line.waitFor();
    // The line is right above the third point.
    const [lineBox, thirdBox, secondBox] = [await line.boundingBox(), await third.boundingBox(), await history(bob.page).getByText('Point 2', { exact: true }).boundingBox()];
    expect(lineBox!.y).toBeGreaterThan(secondBox!.y);
    expect(lineBox!.y).toBeLessThan(thirdBox!.y);
    const marker = await web.t.testStore.store.db.selectFrom('chat_reads').select('read_uid').where('user_id', '=', web.cast.bob.id).where('chat_key', '=', channel.id).executeTakeFirstOrThrow();
    expect(marker.read_uid > points[1]!.uid && marker.read_uid < points[2]!.uid).toBe(true);

    // Open, it stays unread: what comes counts too, and nothing is marked read.
    await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: 'Point 6' });
    await history(bob.page).getByText('Point 6', { exact: true }).waitFor();
    await badge.and(bob.page.getByLabel('4 unread')).waitFor();
    // Left and opened again: read.
    await openChannel(bob.page, 'general');
    await openChannel(bob.page, 'mark-unread');
    await badge.waitFor({ state: 'detached' });
    await serverReadUpTo(channel.id);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('moves through the sidebar with Alt+↑ and Alt+↓, and to the nearest unread chat with Alt+Shift', async () => {
    for (const name of ['keys-one', 'keys-two']) await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name, members: [web.cast.bob.id] });
    const { channel: unread } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'keys-unread', members: [web.cast.bob.id] });
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'general');
    await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: unread.id, text: 'Waiting for Bob' });
    const sidebar = bob.page.getByRole('navigation', { name: 'Conversations' });
    const channelLinks = sidebar.getByRole('region', { name: 'Channels' }).getByRole('link');
    await sidebar.getByRole('link', { name: 'keys-unread' }).getByLabel('1 unread').waitFor();
    const rows = await channelLinks.evaluateAll((links) => links.map((link) => ({ name: link.querySelector('.sidebar-label')?.firstChild?.textContent ?? '', unread: link.querySelector('.unread-badge') !== null })));
    const names = rows.map((row) => row.name);
    const at = names.indexOf('general');
    expect(at).toBeGreaterThanOrEqual(0);
    const heading = async () => bob.page.getByRole('heading', { level: 1 }).textContent();

    // Down and up again, the composer ready to type in.
    const [step, back] = at + 1 < names.length ? (['ArrowDown', 'ArrowUp'] as const) : (['ArrowUp', 'ArrowDown'] as const);
    await bob.page.keyboard.press(`Alt+${step}`);
    await bob.page.getByRole('heading', { name: names[at + (step === 'ArrowDown' ? 1 : -1)], level: 1 }).waitFor();
    await composer(bob.page, /^Message #/).and(bob.page.locator(':focus')).waitFor();
    await bob.page.keyboard.press(`Alt+${back}`);
    await bob.page.getByRole('heading', { name: 'general', level: 1 }).waitFor();

    // With Shift: towards keys-unread, the nearest chat that way with unread messages (the chats earlier
    // tests of this file left unread may lie between).
    const down = names.indexOf('keys-unread') > at;
    const way = down ? rows.slice(at + 1) : rows.slice(0, at).reverse();
    const nearest = way.find((row) => row.unread)!.name;
    await bob.page.keyboard.press(`Alt+Shift+${down ? 'ArrowDown' : 'ArrowUp'}`);
    await bob.page.getByRole('heading', { name: nearest, level: 1 }).waitFor();
    expect(await heading()).toBe(nearest);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('lists the keyboard shortcuts on Ctrl+/, from the composer too', async () => {
    const bob = await signInAs(web.cast.bob.email!);
    await openChannel(bob.page, 'general');
    await composer(bob.page, /Message #general/).press('Control+/');
    const dialog = bob.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.getByRole('region', { name: 'Moving around' }).getByText('Alt + Shift + ↑ / ↓').waitFor();
    expect(await dialog.locator('kbd').count()).toBe(11);
    expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
    await saveScreenshot(bob.page, 'keyboard-shortcuts-light');
    await bob.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await composer(bob.page, /Message #general/).inputValue()).toBe('');
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('opens a chat with more new messages than the view shows at the “New messages” line', async () => {
    const { channel } = await createChannel(web.t.server.ctx, { user: web.cast.alice, appId: null }, { name: 'many-new', members: [web.cast.bob.id] });
    await writeHistory(web.t, { id: channel.id, team_id: web.cast.team.id }, web.cast.alice, [{ text: 'Read long ago' }], 60_000, Date.now() - 3_600_000);
    const bob = await signInAs(web.cast.bob.email!);
    // A busy page: it draws what the stream changed a while after each batch, so that batches come between.
    await bob.context.addInitScript(drawLate);
    await bob.page.reload();
    await openChannel(bob.page, 'many-new');
    await bob.page.getByRole('link', { name: 'many-new' }).getByLabel(/unread/).waitFor({ state: 'detached' });
    await serverReadUpTo(channel.id);
    await openChannel(bob.page, 'general');
    for (let i = 1; i <= 40; i++) await sendMessage(web.t.server.ctx, { user: web.cast.alice, appId: null }, { to: channel.id, text: `Piled up ${i}` });
    await bob.page.getByRole('link', { name: 'many-new' }).getByLabel('40 unread').waitFor();

    await openChannel(bob.page, 'many-new');
    const line = history(bob.page).getByRole('separator', { name: 'New messages' });
    await line.waitFor();
    await history(bob.page).getByText('Piled up 1', { exact: true }).waitFor();
    const [region, lineBox] = [await history(bob.page).boundingBox(), await line.boundingBox()];
    expect(lineBox!.y).toBeGreaterThanOrEqual(region!.y);
    expect(lineBox!.y).toBeLessThan(region!.y + region!.height);
    bob.expectNoErrors();
    await bob.context.close();
  });
});

/**
 * Makes the page draw late, as a busy one does: React's scheduler posts its work to a MessageChannel, whose
 * messages here arrive a quarter of a second later. Frames that come meanwhile are applied before the
 * page has drawn (and so before its components see) what the frames before them changed.
 */
function drawLate() {
  const Native = window.MessageChannel;
  window.MessageChannel = class {
    port1: MessagePort;
    port2: { postMessage: (message: unknown) => void };
    constructor() {
      const channel = new Native();
      this.port1 = channel.port1;
      this.port2 = { postMessage: (message) => void setTimeout(() => channel.port2.postMessage(message), 250) };
    }
  } as unknown as typeof MessageChannel;
}

/** The message's text is inside the history's visible area. */
async function inView(page: Page, text: string) {
  await settledAtBottom(page);
  const [region, message] = [await history(page).boundingBox(), await history(page).getByText(text, { exact: true }).boundingBox()];
  expect(message!.y).toBeGreaterThanOrEqual(region!.y);
  expect(message!.y + message!.height).toBeLessThanOrEqual(region!.y + region!.height);
}
