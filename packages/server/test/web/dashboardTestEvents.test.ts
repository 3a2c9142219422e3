import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../helpers/browser.js';
import { answerWithSdk, closedPortUrl, startListener, type TestListener } from '../helpers/listener.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { PASSWORD, webCast } from './cast.js';

/**
 * The dashboard's "Send a test event" in Chromium against a real server: the example reaches a real SDK
 * listener that verifies its token, and its answer is shown; a refused connection and a missing
 * listener URL are said in place.
 */
const SCREENSHOTS = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));

let t: TestServer;
let browser: Browser;
let cast: Awaited<ReturnType<typeof webCast>>;
const listeners: TestListener[] = [];

beforeAll(async () => {
  if (noBrowser) return;
  t = await startTestServer('sqlite');
  cast = await webCast(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(listeners.map((listener) => listener.close()));
  if (t) await stopTestServer(t);
});

async function openDeliveryLog(appId: string) {
  const watched = await openWatchedPage(browser);
  const { page } = watched;
  await page.goto(`${t.url}/`);
  await page.getByLabel('Email').fill(cast.bob.email!);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Developer' }).waitFor();
  await page.goto(`${t.url}/dev/${appId}`);
  await page.getByRole('tab', { name: 'Delivery log' }).click();
  return watched;
}

describe.skipIf(noBrowser)('the dashboard: send a test event', () => {
  it('sends a slash command the SDK verifies and shows its answer; a refused listener and a missing one are said in place', async () => {
    const listener = await startListener(answerWithSdk);
    listeners.push(listener);
    const app = await t.f.app(cast.team.id, cast.bob.id, { name: 'Tester', listenerUrl: listener.url });
    listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => ({ text: 'Deploying the docs' }) as never });
    const { page, expectNoErrors, context } = await openDeliveryLog(app.id);

    await page.getByLabel('Test event', { exact: true }).selectOption('client.slashCommand');
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('region', { name: 'Test event result' });
    await result.getByText('HTTP 200').waitFor();
    await expect(result.getByLabel('Answer').textContent()).resolves.toBe('{"text":"Deploying the docs"}');
    const [verified] = await listener.waitForVerified(1);
    expect(verified).toMatchObject({ claims: { appId: app.id, userId: cast.bob.id }, event: { name: 'client.slashCommand', userId: cast.bob.id } });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}dashboard-test-event.png` });
    // A test event is not one of the app's events.
    await page.getByRole('table', { name: 'Events' }).waitFor({ state: 'detached' });
    await page.getByText('No events yet.').waitFor();

    await t.testStore.store.db.updateTable('apps').set({ listener_url: await closedPortUrl() }).where('id', '=', app.id).execute();
    await page.getByLabel('Test event', { exact: true }).selectOption('app.uninstall');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByRole('alert').getByText(/app\.uninstall to http:\/\/127\.0\.0\.1:\d+\/?.*could not be reached/).waitFor();

    await t.testStore.store.db.updateTable('apps').set({ listener_url: null }).where('id', '=', app.id).execute();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByRole('alert').getByText(/no listener URL, and no `aviary listen` is connected/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });
});
