import { describe, expect, it } from 'vitest';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { openDashboardPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/** The dashboard's Webhooks tab: the webhooks made through the app, and revoking one. */
const web = webSuite();

describe.skipIf(noBrowser)('the dashboard’s webhooks', () => {
  it('lists the webhooks made with the app’s tokens and revokes one, whose URL then answers 404', async () => {
    const { t, cast } = web;
    const app = await t.f.app(cast.team.id, cast.bob.id, { name: 'Hooks' });
    const { token } = await t.f.install(app.id, cast.alice.id);
    const made = await t.call('webhooks.create', { form: { token, channel: cast.channel.id, name: 'Nightly build' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const { page, expectNoErrors, context } = await openDashboardPage(web.browser, t, cast.bob.email!, `/dev/${app.id}`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const table = page.getByRole('table', { name: 'Incoming webhooks' });
    await table.getByText('Nightly build').waitFor();
    await table.getByText('#general').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, 'dashboard-webhooks');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Nightly build' }).click();
    await page.getByText('No webhook made through this app.').waitFor();
    expect((await fetch(`${t.url}${made.body.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"late"}' })).status).toBe(404);
    expectNoErrors();
    await context.close();
  });
});
