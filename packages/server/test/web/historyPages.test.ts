import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { noBrowser } from '../helpers/browser.js';
import { settledAtBottom, signInPage, writeHistory } from './cast.js';
import { webSuite } from './suite.js';

/** How many history pages the web client asks for on opening a chat: only those the view needs. */
const suite = webSuite();

/** A public channel of Alice's with `count` messages from Bob, a minute apart (one group, rows of one line). */
async function channelWith(name: string, count: number) {
  const { t, cast } = suite;
  const { channel } = await createChannel(t.server.ctx, cast.alice, { name, type: 'public', members: [cast.bob.id] }, Date.now());
  await writeHistory(t, channel, cast.bob, Array.from({ length: count }, (_, index) => ({ text: `${name} message ${index + 1}` })), 60_000);
  return channel;
}

/**
 * Opens `chat` in a page that was signed in, and returns the history requests (GET /api/client/messages)
 * the page makes for it from then on. The signed-in page is left for a blank one first: the chat it
 * landed on may be this one, and its requests, still under way, must not be counted.
 */
async function openCounting(page: Page, chat: string): Promise<string[]> {
  await page.goto('about:blank');
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/api/client/messages' && url.searchParams.get('chat') === chat) seen.push(url.search);
  });
  await page.goto(`${suite.t.url}/c/${encodeURIComponent(chat)}`);
  return seen;
}

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

describe.skipIf(noBrowser)('history pages in the web client', () => {
  it('asks for one page on opening a chat whose first page fills the view, and the next only when the person scrolls near the top', async () => {
    const channel = await channelWith('long', 250);
    const alice = await signInPage(suite.browser, suite.t, suite.cast.alice.email!, 'Northwind');
    const requests = await openCounting(alice.page, channel.id);
    await history(alice.page).getByText('long message 250', { exact: true }).waitFor();
    // Everything the opening sets off has happened once the rows are measured and the view is at the end.
    await settledAtBottom(alice.page);
    await history(alice.page).locator('[aria-busy="false"]').waitFor({ state: 'attached' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).not.toContain('before=');

    const next = alice.page.waitForRequest((request) => request.url().includes('/api/client/messages') && request.url().includes('before='));
    await history(alice.page).evaluate((element) => element.scrollTo({ top: 0 }));
    await next;
    expect(requests.length).toBeGreaterThanOrEqual(2);
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('asks for the next page at once when the first does not fill the view', async () => {
    const channel = await channelWith('tall', 130);
    // A view taller than a hundred one-line rows.
    const alice = await signInPage(suite.browser, suite.t, suite.cast.alice.email!, 'Northwind', { height: 6_000 });
    const requests = await openCounting(alice.page, channel.id);
    await history(alice.page).getByText('This is the very beginning of the conversation.').waitFor();
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain('before=');
    alice.expectNoErrors();
    await alice.context.close();
  });
});
