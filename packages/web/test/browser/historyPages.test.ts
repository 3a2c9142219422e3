import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { scrollHistory, settledAtBottom, signInPage, webCast, writeHistory } from './cast.js';
import { browserSuite } from './suite.js';

/**
 * Loading a chat's history in the web client: only the pages the view needs, the next page whenever the
 * top of the history is near the view, and the person's place kept when a page is put in front. Each test
 * has people and channels of its own (webCast), so that none depends on another having run.
 */
const suite = browserSuite();

const MINUTE = 60_000;

/** A public channel of a new cast's Alice with `count` messages from Bob, `gapMs` apart, the last at `endAt`. */
async function channelWith(name: string, count: number, gapMs = MINUTE, endAt = Date.now()) {
  const cast = await webCast(suite.t);
  const { channel } = await createChannel({ ...suite.t.server.ctx, now: () => endAt - (count + 1) * gapMs }, { user: cast.alice, appId: null }, { name, type: 'public', members: [cast.bob.id] });
  await writeHistory(suite.t, channel, cast.bob, Array.from({ length: count }, (_, index) => ({ text: `${name} message ${index + 1}` })), gapMs, endAt);
  return { cast, channel };
}

/** The parameters of a history request the page makes (chat.fetchMessages), or undefined for any other request. */
function historyParams(request: Request): { chat?: string; before?: string } | undefined {
  if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/v1/chat.fetchMessages') return undefined;
  return JSON.parse(request.postData() ?? '{}') as { chat?: string; before?: string };
}

const isOlderPageRequest = (request: Request) => historyParams(request)?.before !== undefined;

/**
 * Opens `chat` in a page that was signed in, and returns the history requests the page makes for it from
 * then on. The signed-in page is left for a blank one first: the chat it landed on may be this one, and
 * its requests, still under way, must not be counted.
 */
async function openCounting(page: Page, chat: string): Promise<string[]> {
  await page.goto('about:blank');
  const seen: string[] = [];
  page.on('request', (request) => {
    if (historyParams(request)?.chat === chat) seen.push(request.postData()!);
  });
  await page.goto(`${suite.t.url}/c/${encodeURIComponent(chat)}`);
  return seen;
}

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

/**
 * Alice, signed in, with a new channel of `count` messages open and its newest message drawn at the
 * bottom of the view; and the history requests her page made for it (openCounting).
 */
async function openedAtNewest(name: string, count: number) {
  const { cast, channel } = await channelWith(name, count);
  const alice = await signInPage(suite.browser, suite.t, cast.alice.email!, 'Northwind');
  const requests = await openCounting(alice.page, channel.id);
  await history(alice.page).getByText(`${name} message ${count}`, { exact: true }).waitFor();
  // Everything the opening sets off has happened once the rows are measured and the view is at the end.
  await settledAtBottom(alice.page);
  return { alice, requests };
}

const nextFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Scrolls the history to its very top and holds the request for the older page that this sets off, so
 * that the first message row in the view, how far it is from the view's top, and the list's first row
 * can be noted before the page arrives. Resolves once the page has arrived and been drawn, with what was noted.
 */
async function scrollUpForOlderPage(page: Page): Promise<{ uid: string; offset: number; firstRow: string }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const historyUrl = (url: URL) => url.pathname === '/v1/chat.fetchMessages';
  await page.route(historyUrl, async (route) => {
    if (isOlderPageRequest(route.request())) await held;
    await route.continue();
  });
  const sent = page.waitForRequest(isOlderPageRequest);
  await scrollHistory(page, 'top');
  const request = await sent;
  await nextFrames(page);
  const noted = await history(page).evaluate((element) => {
    const view = element.getBoundingClientRect();
    const inView = [...element.querySelectorAll<HTMLElement>('[data-uid]')].filter((row) => row.getBoundingClientRect().top >= view.top);
    inView.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const firstRow = element.querySelector<HTMLElement>('[data-index="0"]')!.innerText;
    return { uid: inView[0]!.dataset.uid!, offset: inView[0]!.getBoundingClientRect().top - view.top, firstRow };
  });
  release();
  await request.response();
  await page.unroute(historyUrl);
  await history(page).locator('[aria-busy="false"]').waitFor({ state: 'attached' });
  await nextFrames(page);
  return noted;
}

/** Where the message row `uid` now is, from the top of the view. */
const offsetOf = (page: Page, uid: string) =>
  history(page).evaluate((element, uid) => element.querySelector(`[data-uid="${uid}"]`)!.getBoundingClientRect().top - element.getBoundingClientRect().top, uid);

describe.skipIf(noBrowser)('history pages in the web client', () => {
  it('asks for one page on opening a chat whose first page fills the view, and the next only when the person scrolls near the top', async () => {
    const { alice, requests } = await openedAtNewest('long', 250);
    await history(alice.page).locator('[aria-busy="false"]').waitFor({ state: 'attached' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).not.toContain('"before"');

    const next = alice.page.waitForRequest(isOlderPageRequest);
    await scrollHistory(alice.page, 'top');
    await next;
    expect(requests.length).toBeGreaterThanOrEqual(2);
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('asks for an older page that failed once, shows why, and again only when the person tries again or the browser is back online', async () => {
    const { alice, requests } = await openedAtNewest('flaky', 250);
    const olderAsked = () => requests.filter((body) => body.includes('"before"')).length;

    // The network goes; the person scrolls to the top: the older page is asked for, and fails.
    await alice.context.setOffline(true);
    await scrollHistory(alice.page, 'top');
    const tryAgain = history(alice.page).getByRole('button', { name: 'Try again' });
    await tryAgain.waitFor();
    await history(alice.page).getByRole('alert').getByText('Aviary could not be reached: check the connection, then try again.').waitFor();
    // Once, however long it stays failed (it was asked again at once after each failure, in a loop).
    await nextFrames(alice.page);
    await nextFrames(alice.page);
    expect(olderAsked()).toBe(1);
    // Try again, still offline: asked once more, and refused again.
    await tryAgain.click();
    await expect.poll(olderAsked).toBe(2);
    await tryAgain.waitFor();

    // Back online: asked for again by itself.
    await alice.context.setOffline(false);
    await history(alice.page).getByText('flaky message 150', { exact: true }).waitFor({ state: 'attached' });
    await tryAgain.waitFor({ state: 'detached' });
    expect(await history(alice.page).getByRole('alert').count()).toBe(0);
    await alice.context.close();
  });

  it('asks for the next page at once when the first does not fill the view', async () => {
    const { cast, channel } = await channelWith('tall', 130);
    // A view taller than a hundred one-line rows.
    const alice = await signInPage(suite.browser, suite.t, cast.alice.email!, 'Northwind', { height: 6_000 });
    const requests = await openCounting(alice.page, channel.id);
    await history(alice.page).getByText('This is the very beginning of the conversation.').waitFor();
    expect(requests).toHaveLength(2);
    expect(requests[1]).toContain('"before"');
    alice.expectNoErrors();
    await alice.context.close();
  });

  it('scrolls back through 450 messages over four days to the first, each page in front keeping the place, day separators first and a page ending at midnight', async () => {
    // A fixed time, not the real one: ten minutes apart, the 351st message (the oldest of the first page
    // of 100) is at midnight in Alice's zone (+01:00), the 251st (the oldest of the second) at 07:20 on
    // the day before, whose separator is the first row both before and after the third page arrives.
    const midnight = Date.UTC(2026, 2, 10, 23, 0);
    const gap = 10 * MINUTE;
    const { cast, channel } = await channelWith('archive', 450, gap, midnight + 100 * gap);
    const alice = await signInPage(suite.browser, suite.t, cast.alice.email!, 'Northwind');
    await alice.page.goto(`${suite.t.url}/c/${encodeURIComponent(channel.id)}`);
    await history(alice.page).getByText('archive message 450', { exact: true }).waitFor();
    await settledAtBottom(alice.page);

    const start = history(alice.page).getByText('This is the very beginning of the conversation.');
    const firstRows: string[] = [];
    for (let page = 2; page <= 5; page++) {
      const noted = await scrollUpForOlderPage(alice.page);
      // The row the person was reading stays where it was (to within a pixel of rounding).
      expect(Math.abs((await offsetOf(alice.page, noted.uid)) - noted.offset)).toBeLessThanOrEqual(1);
      firstRows.push(noted.firstRow);
    }
    await scrollHistory(alice.page, 'top');
    await start.waitFor();
    await history(alice.page).getByText('archive message 1', { exact: true }).waitFor();
    // Before each page, the list began with the separator of its oldest day: the first page's is the
    // midnight one; the last two pages each began within the day already first.
    expect(firstRows).toEqual(['Wednesday, March 11, 2026', 'Tuesday, March 10, 2026', 'Monday, March 9, 2026', 'Sunday, March 8, 2026']);
    await expect(history(alice.page).locator('[data-index="1"]').innerText()).resolves.toBe('Sunday, March 8, 2026');
    alice.expectNoErrors();
    await alice.context.close();
  });
});
