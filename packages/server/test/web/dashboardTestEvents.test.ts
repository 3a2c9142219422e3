import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../helpers/browser.js';
import { answerWithSdk, closedPortUrl, startListener, type TestListener } from '../helpers/listener.js';
import { openDashboardPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * The dashboard's "Send a test event" in Chromium against a real server: the example reaches a real SDK
 * listener that verifies its token, and its answer is shown; a refused connection and a missing
 * listener URL are said in place.
 */
const listeners: TestListener[] = [];
const web = webSuite({ close: () => Promise.all(listeners.map((listener) => listener.close())) });

async function openDeliveryLog(appId: string) {
  const watched = await openDashboardPage(web.browser, web.t, web.cast.bob.email!, `/dev/${appId}`);
  await watched.page.getByRole('tab', { name: 'Delivery log' }).click();
  return watched;
}

describe.skipIf(noBrowser)('the dashboard: send a test event', () => {
  it('sends a slash command the SDK verifies and shows its answer; a refused listener and a missing one are said in place', async () => {
    const listener = await startListener(answerWithSdk);
    listeners.push(listener);
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Tester', listenerUrl: listener.url });
    listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => ({ text: 'Deploying the docs' }) as never });
    const { page, expectNoErrors, context } = await openDeliveryLog(app.id);

    await page.getByLabel('Test event', { exact: true }).selectOption('client.slashCommand');
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('region', { name: 'Test event result' });
    await result.getByText('HTTP 200').waitFor();
    await expect(result.getByLabel('Answer').textContent()).resolves.toBe('{"text":"Deploying the docs"}');
    const [verified] = await listener.waitForVerified(1);
    expect(verified).toMatchObject({ claims: { appId: app.id, userId: web.cast.bob.id }, event: { name: 'client.slashCommand', userId: web.cast.bob.id } });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'dashboard-test-event');
    // A test event is not one of the app's events.
    await page.getByRole('table', { name: 'Events' }).waitFor({ state: 'detached' });
    await page.getByText('No events yet.').waitFor();

    await web.t.testStore.store.db.updateTable('apps').set({ listener_url: await closedPortUrl() }).where('id', '=', app.id).execute();
    await page.getByLabel('Test event', { exact: true }).selectOption('app.uninstall');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByRole('alert').getByText(/app\.uninstall to http:\/\/127\.0\.0\.1:\d+\/?.*could not be reached/).waitFor();

    await web.t.testStore.store.db.updateTable('apps').set({ listener_url: null }).where('id', '=', app.id).execute();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByRole('alert').getByText(/no listener URL, and no `aviary listen` is connected/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });
});
