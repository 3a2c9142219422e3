import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { answerWithSdk, closedPortUrl, startListener, type TestListener } from '../../../server/test/helpers/listener.js';
import { startWidgetPages } from '../../../server/test/helpers/widgetPages.js';
import { openDashboardPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * The dashboard's "Send a test event" in Chromium against a real server: the example reaches a real SDK
 * listener that verifies its token, and its answer is shown; a refused connection and a missing
 * listener URL are said in place.
 */
const listeners: TestListener[] = [];
const closers: Array<() => Promise<void>> = [];
const web = webSuite({ close: () => Promise.all([...listeners.map((listener) => listener.close()), ...closers.map((close) => close())]) });

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

  it("offers the app's own commands, takes the text, and loads a widget command's URL instead of calling the listener", async () => {
    const listener = await startListener(answerWithSdk);
    listeners.push(listener);
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Own commands', listenerUrl: listener.url });
    const widgets = await startWidgetPages(app);
    closers.push(widgets.close);
    const integrations = {
      slashCommands: [
        { name: 'ship', action: { type: 'sendEvent' } },
        { name: 'board', action: { type: 'openWidget', url: `${widgets.origin}/board` } },
      ],
      previewDomains: [],
    };
    await web.t.testStore.store.db.updateTable('apps').set({ integrations: JSON.stringify(integrations) }).where('id', '=', app.id).execute();
    listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async (event) => ({ text: event.name === 'client.slashCommand' ? `/${event.command} ${event.text}` : '' }) as never });
    const { page, expectNoErrors, context } = await openDeliveryLog(app.id);

    await page.getByLabel('Text', { exact: true }).fill('to production');
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('region', { name: 'Test event result' });
    await result.getByText('HTTP 200').waitFor();
    await expect(result.getByLabel('Answer').textContent()).resolves.toBe('{"text":"/ship to production"}');

    await page.getByLabel('Command', { exact: true }).fill('board');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByText(`to the widget ${widgets.origin}/board`).waitFor();
    await expect(result.getByLabel('Answer').textContent()).resolves.toBe('verified client.slashCommand /board to production as modal');
    expect(listener.received).toHaveLength(1);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });
});
