import { eventExamples } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../../server/src/events/outbox/enqueue.js';
import { sessionFor } from '../../../server/test/client/harness.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { startListener, type TestListener } from '../../../server/test/helpers/listener.js';
import { openDashboardPage } from './cast.js';
import { webSuite } from './suite.js';

/**
 * The dashboard's delivery log follows the stream: with the page open and nobody touching it, an event
 * the listener refuses shows up failed, its replay (from elsewhere) turns it delivered, and a pause
 * (from elsewhere) shows the banner, each without a reload or the Refresh button.
 */
const listeners: TestListener[] = [];
const web = webSuite({ close: () => Promise.all(listeners.map((listener) => listener.close())) });

describe.skipIf(noBrowser)('the dashboard, live', () => {
  it('shows delivery status changes as they happen, without a reload', async () => {
    // The listener refuses the first delivery (a 400 fails it at once), then answers through the SDK.
    const listener = await startListener((_request, index) => (index === 0 ? { status: 400, body: '{"error":"not yet"}' } : 'sdk'));
    listeners.push(listener);
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Live', listenerUrl: listener.url });
    listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => undefined as never });

    const { page, expectNoErrors, context } = await openDashboardPage(web.browser, web.t, web.cast.bob.email!, `/dev/${app.id}`);
    await page.getByRole('tab', { name: 'Delivery log' }).click();
    await page.getByText('No events yet.').waitFor();
    let loads = 0;
    page.on('load', () => loads++);

    const { ctx } = web.t.server;
    await enqueueEvent(ctx.db, { appId: app.id, userId: web.cast.alice.id, event: { ...eventExamples['app.uninstall'], userId: web.cast.alice.id } }, Date.now());
    ctx.events.wake();
    const row = page.getByRole('table', { name: 'Events' }).locator('tbody tr').first();
    await row.getByText('failed', { exact: true }).waitFor();
    await expect(row.textContent()).resolves.toContain('the listener answered HTTP 400');

    // Someone else (the developer's terminal, another tab) replays it and pauses delivery.
    const elsewhere = await sessionFor(web.t, web.cast.bob);
    const [event] = await ctx.db.selectFrom('events').select('id').where('app_id', '=', app.id).execute();
    const developerCall = (method: string, params: object = {}) => elsewhere.call(method, { appId: app.id, ...params });
    expect((await developerCall('deliveries.replay', { eventId: event!.id })).status).toBe(200);
    await listener.waitForVerified(1);
    await row.getByText('delivered', { exact: true }).waitFor();
    expect((await developerCall('deliveries.pause')).status).toBe(200);
    await page.getByRole('region', { name: 'Delivery paused' }).waitFor();
    expect((await developerCall('deliveries.resume')).status).toBe(200);
    await page.getByRole('region', { name: 'Delivery paused' }).waitFor({ state: 'detached' });

    expect(loads).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expectNoErrors();
    await context.close();
  });
});
