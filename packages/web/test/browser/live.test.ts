import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { sendMessage } from '../../../server/src/core/commands/sendMessage.js';
import { closeSdkApps, startSdkApp } from '../../../server/test/client/harness.js';
import { noBrowser, type WatchedPage } from '../../../server/test/helpers/browser.js';
import { restartOnSameStore, type TestServer } from '../../../server/test/helpers/server.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * The web client live over the stream, two people in two browser contexts: what one sends appears in the
 * other's page without a reload, in a channel and in a direct chat, and the unread badge follows.
 */
/** The server started on the suite's store and port by the restart test, closed at the end. */
let restarted: TestServer | undefined;
const web = webSuite({
  close: async () => {
    await closeSdkApps();
    if (restarted) await restarted.server.close();
  },
});

const signInAs = (email: string, team?: string): Promise<WatchedPage> => signInPage(web.browser, web.t, email, team);

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

async function send(page: Page, placeholder: RegExp, text: string) {
  await page.getByRole('textbox', { name: placeholder }).fill(text);
  await page.keyboard.press('Enter');
  await history(page).getByText(text).waitFor();
}

describe.skipIf(noBrowser)('the web client live', () => {
  it('two people chat in a channel and in a direct chat; each message appears in the other page once, without reload', async () => {
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    const bob = await signInAs(web.cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await bob.page.getByRole('link', { name: 'general' }).click();

    await send(alice.page, /Message #general/, 'Bob, lunch at noon?');
    await history(bob.page).getByText('Bob, lunch at noon?').waitFor();
    await send(bob.page, /Message #general/, 'Yes, see you there');
    await history(alice.page).getByText('Yes, see you there').waitFor();

    // A direct chat Alice has never had: it appears in her sidebar with its badge when Bob writes.
    const answer = await bob.context.request.post(`${web.t.url}/v1/chat.sendMessage`, {
      headers: { origin: web.t.url },
      data: { to: web.cast.alice.id, text: 'A word in private?' },
    });
    if (!answer.ok()) throw new Error(`send failed: ${answer.status()} ${await answer.text()}`);
    const direct = alice.page.getByRole('link', { name: /Bob Baker/ });
    await direct.getByLabel('1 unread').waitFor();
    await direct.click();
    await history(alice.page).getByText('A word in private?').waitFor();
    // Opened and visible: read, so the badge clears.
    await direct.getByLabel(/unread/).waitFor({ state: 'detached' });

    await bob.page.getByRole('link', { name: /Alice Archer/ }).click();
    await send(alice.page, /Message Bob Baker/, 'Sure, go ahead');
    await history(bob.page).getByText('Sure, go ahead').waitFor();
    // Once, not twice (the page's own send and the stream's frame are the same message).
    if ((await history(alice.page).getByText('Sure, go ahead').count()) !== 1) throw new Error('doubled in the sender’s page');
    if ((await history(bob.page).getByText('Sure, go ahead').count()) !== 1) throw new Error('doubled in the reader’s page');

    // A message in a chat Bob is not looking at: its badge appears and the sidebar shows it.
    await send(alice.page, /Message Bob Baker/, 'And another thing');
    await bob.page.getByRole('link', { name: 'general' }).click();
    await send(alice.page, /Message Bob Baker/, 'Ping');
    await bob.page.getByRole('link', { name: /Alice Archer/ }).getByLabel('1 unread').waitFor();

    alice.expectNoErrors();
    bob.expectNoErrors();
    await alice.context.close();
    await bob.context.close();
  });

  it('keeps a badge that came while the list was reloading, from an answer the server made before it', async () => {
    const { bob, alice: aliceRow } = web.cast;
    const { channel: side } = await createChannel(web.t.server.ctx, { user: bob, appId: null }, { name: 'side-room', type: 'public', members: [aliceRow.id] });
    const alice = await signInAs(aliceRow.email!, 'Northwind');
    await alice.page.getByRole('link', { name: 'general' }).click();

    // The list's reload after Alice's send: its answer is taken from the server at once, then held on
    // its way to the page, as on a slow network.
    let taken!: () => void;
    const answerTaken = new Promise<void>((resolve) => (taken = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await alice.page.route(
      '**/v1/chat.listConversations',
      async (route) => {
        const response = await route.fetch();
        taken();
        await released;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    await send(alice.page, /Message #general/, 'Anyone around?');
    await answerTaken;

    // Bob writes in the other channel after that answer was made: its badge comes over the stream.
    await sendMessage(web.t.server.ctx, { user: bob, appId: null }, { to: side.id, text: 'Over here' });
    const badge = alice.page.getByRole('link', { name: 'side-room' }).getByLabel('1 unread');
    await badge.waitFor();
    // Whether the badge leaves the page at any moment once the held answer is let go.
    await alice.page.evaluate(() => {
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent?.includes('side-room'))!;
      const seen = window as unknown as { badgeLost?: boolean };
      new MutationObserver(() => {
        if (!link.isConnected || !link.querySelector('[aria-label="1 unread"]')) seen.badgeLost = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    release();
    // The answer has come (the page's resource timing lists it once its body is in), and the page has
    // rendered twice since: long after the answer was applied.
    await alice.page.waitForFunction(() => performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/v1/chat.listConversations')).length >= 2);
    await alice.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await alice.page.evaluate(() => (window as unknown as { badgeLost?: boolean }).badgeLost ?? false)).toBe(false);
    expect(await badge.count()).toBe(1);
    alice.expectNoErrors();
  });

  it('a preview attached by a real SDK listener app appears live in both pages', async () => {
    const previews = await startSdkApp(web.t, { teamId: web.cast.team.id, developerId: web.cast.alice.id, integrations: { previewDomains: ['tickets.example.test'] } });
    previews.answer = () => ({ title: 'Ticket 7: the build is red', description: 'Opened by Bob' });
    await web.t.f.install(previews.app.id, web.cast.alice.id);
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    const bob = await signInAs(web.cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await bob.page.getByRole('link', { name: 'general' }).click();
    await send(alice.page, /Message #general/, 'See https://tickets.example.test/7');
    await history(bob.page).getByText('Ticket 7: the build is red').waitFor();
    await history(alice.page).getByText('Ticket 7: the build is red').waitFor();
    alice.expectNoErrors();
    bob.expectNoErrors();
    await alice.context.close();
    await bob.context.close();
  });

  it('an app’s edit of its message replaces it live, marked "(edited)" with the time as its title', async () => {
    const poller = await web.t.f.app(web.cast.team.id, web.cast.alice.id, { name: 'Poller' });
    const client = web.t.client((await web.t.f.install(poller.id, web.cast.alice.id)).token);
    const bob = await signInAs(web.cast.bob.email!);
    await bob.page.getByRole('link', { name: 'general' }).click();
    const { uid } = await client.chat.sendMessage({ to: web.cast.channel.id, text: 'Lunch? 0 votes' });
    await history(bob.page).getByText('Lunch? 0 votes').waitFor();
    if ((await history(bob.page).getByText('(edited)').count()) !== 0) throw new Error('marked edited before any edit');

    await client.chat.updateMessage({ messageUid: uid, text: 'Lunch? 1 vote' });
    await history(bob.page).getByText('Lunch? 1 vote').waitFor();
    const marker = history(bob.page).getByText('(edited)');
    const title = await marker.getAttribute('title');
    if (!title?.startsWith('Edited ')) throw new Error(`the marker's title is ${JSON.stringify(title)}`);
    if ((await history(bob.page).getByText('Lunch? 0 votes').count()) !== 0) throw new Error('the old text is still shown');
    // On the text's own line, after it, as chats show it.
    const text = await history(bob.page).getByText('Lunch? 1 vote').boundingBox();
    const mark = await marker.boundingBox();
    expect(Math.abs(mark!.y + mark!.height / 2 - (text!.y + text!.height / 2))).toBeLessThan(6);
    expect(mark!.x).toBeGreaterThan(text!.x + text!.width - 1);
    bob.expectNoErrors();
    await bob.context.close();
  });

  it('a server restart under an open page loses nothing and doubles nothing; "Reconnecting…" shows meanwhile', async () => {
    const alice = await signInAs(web.cast.alice.email!, 'Northwind');
    const bob = await signInAs(web.cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await bob.page.getByRole('link', { name: 'general' }).click();
    await send(bob.page, /Message #general/, 'Before the restart');
    await history(alice.page).getByText('Before the restart').waitFor();

    const status = alice.page.getByRole('status').filter({ hasText: 'Reconnecting…' });
    await web.t.server.close();
    await status.waitFor();
    restarted = await restartOnSameStore(web.t, { port: Number(new URL(web.t.url).port) });
    // Sent on the new server before or after the page is back: either way it comes once, over the stream.
    for (const text of ['After the restart, one', 'After the restart, two']) {
      const answer = await bob.context.request.post(`${restarted.url}/v1/chat.sendMessage`, { headers: { origin: restarted.url }, data: { to: web.cast.channel.id, text } });
      if (!answer.ok()) throw new Error(`send failed: ${answer.status()} ${await answer.text()}`);
    }
    await history(alice.page).getByText('After the restart, two').waitFor();
    await status.waitFor({ state: 'detached' });
    for (const text of ['Before the restart', 'After the restart, one', 'After the restart, two']) {
      const count = await history(alice.page).getByText(text).count();
      if (count !== 1) throw new Error(`"${text}" shown ${count} times`);
    }
    await alice.context.close();
    await bob.context.close();
  });
});
