import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchBrowser, noBrowser, openWatchedPage, type WatchedPage } from '../helpers/browser.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD, webCast } from './cast.js';

/**
 * The web client live over the stream, two people in two browser contexts: what one sends appears in the
 * other's page without a reload, in a channel and in a direct chat, and the unread badge follows.
 */
let t: TestServer;
let browser: Browser;
let cast: Awaited<ReturnType<typeof webCast>>;

beforeAll(async () => {
  if (noBrowser) return;
  t = await startTestServer('sqlite');
  cast = await webCast(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  if (t) await stopTestServer(t);
});

async function signInAs(email: string, team?: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser);
  const { page } = watched;
  await page.goto(`${t.url}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (team) {
    await page.getByRole('radio', { name: team }).check();
    await page.getByRole('button', { name: 'Sign in to this team' }).click();
  }
  await page.getByRole('region', { name: 'Message history' }).waitFor();
  return watched;
}

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });

async function send(page: Page, placeholder: RegExp, text: string) {
  await page.getByRole('combobox', { name: placeholder }).fill(text);
  await page.keyboard.press('Enter');
  await history(page).getByText(text).waitFor();
}

describe.skipIf(noBrowser)('the web client live', () => {
  it('two people chat in a channel and in a direct chat; each message appears in the other page once, without reload', async () => {
    const alice = await signInAs(cast.alice.email!, 'Northwind');
    const bob = await signInAs(cast.bob.email!);
    await alice.page.getByRole('link', { name: 'general' }).click();
    await bob.page.getByRole('link', { name: 'general' }).click();

    await send(alice.page, /Message #general/, 'Bob, lunch at noon?');
    await history(bob.page).getByText('Bob, lunch at noon?').waitFor();
    await send(bob.page, /Message #general/, 'Yes, see you there');
    await history(alice.page).getByText('Yes, see you there').waitFor();

    // A direct chat Alice has never had: it appears in her sidebar with its badge when Bob writes.
    const answer = await bob.context.request.post(`${t.url}/api/client/messages`, {
      headers: { origin: t.url },
      data: { to: cast.alice.id, text: 'A word in private?' },
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
});
