import { eventExamples, type AnyEvent } from '@aviary/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../../server/src/events/outbox/enqueue.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { startListener, type TestListener } from '../../../server/test/helpers/listener.js';
import { submitSignIn } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * The developer dashboard (/dev) in Chromium against a real server: a refused field shown in place,
 * the integrations editor's round trip, bot and secret, and the delivery log's filters and replay
 * reaching a real SDK listener. Screenshots of each screen go to docs/screenshots/.
 */
const listeners: TestListener[] = [];
const web = webSuite({ close: () => Promise.all(listeners.map((listener) => listener.close())) });

/** Refusals the tests provoke on purpose: Chromium logs each 4xx answer as a console error. */
const expectedRefusals = (errors: string[]) => errors.filter((error) => !/status of 400 /.test(error));

async function openDashboard(path = '/dev') {
  const watched = await openWatchedPage(web.browser);
  const { page } = watched;
  await submitSignIn(page, web.t, web.cast.bob.email!);
  await page.getByRole('link', { name: 'Developer' }).click();
  await page.getByRole('heading', { name: 'My apps' }).waitFor();
  if (path !== '/dev') await page.goto(`${web.t.url}${path}`);
  return watched;
}

const check = async (page: Page, screenshot?: string) => {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  if (screenshot) await saveScreenshot(page, screenshot);
};

describe.skipIf(noBrowser)('the developer dashboard', () => {
  it('creates an app: a bad listener URL is refused under its field, then the app is made and listed', async () => {
    const { page, errors, context } = await openDashboard();
    await page.getByRole('button', { name: 'New app' }).click();
    await page.getByLabel('Name').fill('Weather');
    await page.getByLabel('Description').fill('Forecasts on demand');
    await page.getByLabel('Listener URL').fill('ftp://weather.example/events');
    await page.getByRole('button', { name: 'Create app' }).click();

    const listener = page.getByLabel('Listener URL');
    await listener.and(page.locator('[aria-invalid="true"]')).waitFor();
    const describedBy = (await listener.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    await expect(page.locator(`[id="${describedBy}"]`).textContent()).resolves.toMatch(/listenerUrl|http/i);
    await expect(page.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('false');
    await check(page, 'dashboard-create-error');

    await listener.fill('http://127.0.0.1:9/events');
    await page.getByRole('button', { name: 'Create app' }).click();
    await page.getByRole('heading', { name: 'Weather', level: 1 }).waitFor();
    const app = await web.t.testStore.store.db.selectFrom('apps').selectAll().where('name', '=', 'Weather').executeTakeFirstOrThrow();
    expect(app).toMatchObject({ developer_id: web.cast.bob.id, description: 'Forecasts on demand', listener_url: 'http://127.0.0.1:9/events' });
    expect(page.url()).toBe(`${web.t.url}/dev/${encodeURIComponent(app.id)}`);
    await page.getByRole('tab', { name: 'Settings', selected: true }).waitFor();
    await check(page, 'dashboard-app-settings');

    await page.getByRole('link', { name: 'All my apps' }).click();
    await page.getByRole('list', { name: 'My apps' }).getByRole('link', { name: 'Weather' }).waitFor();
    await check(page, 'dashboard-apps');
    expect(expectedRefusals(errors)).toEqual([]);
    await context.close();
  });

  it('settings: Flock-compatible naming and the events the app receives are saved, and shown again after a reload', async () => {
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Flocked' });
    const { page, errors, context } = await openDashboard(`/dev/${app.id}`);
    const flockNaming = page.getByRole('checkbox', { name: /Flock-compatible naming/ });
    const defaults = page.getByRole('checkbox', { name: /The defaults/ });
    await expect(flockNaming.isChecked()).resolves.toBe(false);
    await expect(defaults.isChecked()).resolves.toBe(true);
    await flockNaming.check();
    await defaults.uncheck();
    await page.getByRole('checkbox', { name: 'chat.receiveMessage' }).uncheck();
    await page.getByRole('checkbox', { name: 'chat.generateUrlPreview' }).uncheck();
    // Answered once stored: the save's own response is the signal.
    const saved = page.waitForResponse((response) => response.request().postData()?.includes('"flockNaming":true') === true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect((await saved).status()).toBe(200);
    const stored = await web.t.testStore.store.db.selectFrom('apps').select(['flock_naming', 'event_subscriptions']).where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(stored.flock_naming).toBe(1);
    const subscribed: string[] = JSON.parse(stored.event_subscriptions!);
    expect(subscribed).not.toContain('chat.receiveMessage');
    expect(subscribed).toHaveLength(8);

    await page.reload();
    await flockNaming.and(page.locator(':checked')).waitFor();
    await expect(page.getByRole('checkbox', { name: 'chat.receiveMessage' }).isChecked()).resolves.toBe(false);
    await expect(page.getByRole('checkbox', { name: 'client.slashCommand' }).isChecked()).resolves.toBe(true);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(expectedRefusals(errors)).toEqual([]);
    await context.close();
  });

  it('edits integrations: a widget without a URL is refused at that action’s URL, then saved and shown again after a reload', async () => {
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Polls' });
    const { page, errors, context } = await openDashboard(`/dev/${app.id}`);
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await page.getByRole('button', { name: 'Add a slash command' }).click();
    const command = page.getByRole('group', { name: 'Slash command 1' });
    await command.getByLabel('Command name').fill('poll');
    await command.getByLabel('Command description').fill('Start a poll');
    await command.getByLabel('Does').selectOption('openWidget');
    await command.getByLabel('URL').fill('javascript:alert(1)');
    await command.getByLabel('Opens as').selectOption('sidebar');
    await page.getByLabel(/Show a launcher button/).check();
    // "an" before a vowel.
    await page.getByLabel(/Show an attachment-picker button/).waitFor();
    await page.getByLabel('Launcher button name').fill('New poll');
    await page.getByLabel('Preview domains').fill('polls.example\n*.polls.example');
    await page.getByRole('button', { name: 'Save integrations' }).click();

    const url = command.getByLabel('URL');
    await url.and(page.locator('[aria-invalid="true"]')).waitFor();
    await expect(command.getByRole('alert').textContent()).resolves.toBeTruthy();
    await url.scrollIntoViewIfNeeded();
    await check(page, 'dashboard-integrations-error');

    await url.fill('https://polls.example/widget');
    await page.getByRole('button', { name: 'Save integrations' }).click();
    await page.getByRole('status').getByText('Integrations saved.').waitFor();
    const stored = await web.t.testStore.store.db.selectFrom('apps').select('integrations').where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.integrations)).toMatchObject({
      slashCommands: [{ name: 'poll', description: 'Start a poll', action: { type: 'openWidget', url: 'https://polls.example/widget', desktopType: 'sidebar' } }],
      launcherButton: { name: 'New poll', action: { type: 'sendEvent' } },
      previewDomains: ['polls.example', '*.polls.example'],
    });

    await page.reload();
    await page.getByRole('tab', { name: 'Integrations' }).click();
    await expect(page.getByRole('group', { name: 'Slash command 1' }).getByLabel('URL').inputValue()).resolves.toBe('https://polls.example/widget');
    await expect(page.getByLabel('Launcher button name').inputValue()).resolves.toBe('New poll');
    await check(page, 'dashboard-integrations');
    expect(expectedRefusals(errors)).toEqual([]);
    await context.close();
  });

  it('enables the bot with a token shown once, and rotates the secret', async () => {
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Standup' });
    const { page, expectNoErrors, context } = await openDashboard(`/dev/${app.id}`);
    await page.getByRole('tab', { name: 'Bot and secret' }).click();
    await page.getByRole('button', { name: 'Enable the bot' }).click();
    const token = await page.getByLabel('Bot token').textContent();
    const bot = await web.t.testStore.store.db.selectFrom('apps').select(['bot_user_id', 'secret']).where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(bot.bot_user_id).toBeTruthy();
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: 'Regenerate the bot token' }).click();
    await page.getByLabel('Bot token').filter({ hasNotText: token! }).waitFor();

    await page.getByRole('button', { name: 'Show the secret' }).click();
    await expect(page.getByLabel('App secret', { exact: true }).textContent()).resolves.toBe(bot.secret);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByLabel('App secret', { exact: true }).filter({ hasNotText: bot.secret }).waitFor();
    const rotated = await web.t.testStore.store.db.selectFrom('apps').select('secret').where('id', '=', app.id).executeTakeFirstOrThrow();
    await expect(page.getByLabel('App secret', { exact: true }).textContent()).resolves.toBe(rotated.secret);
    await page.getByRole('status').getByText(/also carry a token signed with the previous secret/).waitFor();
    await check(page, 'dashboard-bot-secret');
    expectNoErrors();
    await context.close();
  });

  it('delivery log: filters by name and status, shows the failed attempt with the answer, and a replay reaches the SDK listener', async () => {
    // The listener refuses the first event (a 400 fails it at once), then answers through the SDK.
    const listener = await startListener((_request, index) => (index === 0 ? { status: 400, body: '{"error":"not configured yet"}' } : 'sdk'));
    listeners.push(listener);
    const app = await web.t.f.app(web.cast.team.id, web.cast.bob.id, { name: 'Deploybot', listenerUrl: listener.url });
    listener.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => undefined as never });
    const { ctx } = web.t.server;
    const enqueue = async (event: AnyEvent) => {
      await enqueueEvent(ctx.db, { appId: app.id, userId: web.cast.alice.id, event }, Date.now());
      ctx.events.wake();
      await ctx.events.idle();
    };
    await enqueue({ ...eventExamples['app.uninstall'], userId: web.cast.alice.id });
    await enqueue({ ...eventExamples['chat.receiveMessage'], userId: web.cast.alice.id });
    expect(listener.verified.map((event) => event.event.name)).toEqual(['chat.receiveMessage']);

    const { page, errors, context } = await openDashboard(`/dev/${app.id}`);
    await page.getByRole('tab', { name: 'Delivery log' }).click();
    const events = page.getByRole('table', { name: 'Events' });
    await events.getByRole('cell', { name: 'chat.receiveMessage', exact: true }).waitFor();
    await events.getByRole('cell', { name: 'app.uninstall', exact: true }).waitFor();

    // A filter's answer replaces the two rows at once: the second row goes when it has come.
    const rows = events.locator('tbody tr');
    await page.getByLabel('Status').selectOption('failed');
    await rows.nth(1).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('app.uninstall');
    await page.getByLabel('Status').selectOption('');
    await rows.nth(1).waitFor();
    await page.getByLabel('Event', { exact: true }).selectOption('chat.receiveMessage');
    await rows.nth(1).waitFor({ state: 'detached' });
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('delivered');
    await page.getByLabel('Event', { exact: true }).selectOption('');

    await page.getByRole('button', { name: /^Attempts of app\.uninstall/ }).click();
    const attempts = page.getByRole('table', { name: /^Attempts of/ });
    await attempts.getByText('not configured yet').waitFor();
    await expect(attempts.textContent()).resolves.toContain('400');
    await check(page, 'dashboard-delivery-log');

    await page.getByRole('button', { name: 'Replay all failed…' }).click();
    await page.getByRole('group', { name: 'Replay all failed events' }).getByRole('button', { name: 'Replay them' }).click();
    await page.getByRole('status').getByText('1 failed event sent again.').waitFor();
    const verified = await listener.waitForVerified(2);
    expect(verified.map((event) => event.event.name)).toEqual(['chat.receiveMessage', 'app.uninstall']);

    await page.getByRole('button', { name: 'Pause delivery' }).click();
    await page.getByRole('region', { name: 'Delivery paused' }).waitFor();
    // The banner shows once the pause was answered, so it is stored by then.
    expect((await ctx.db.selectFrom('apps').select('delivery_paused_at').where('id', '=', app.id).executeTakeFirstOrThrow()).delivery_paused_at).not.toBeNull();
    await check(page, 'dashboard-delivery-paused');
    await page.getByRole('button', { name: 'Resume delivery' }).click();
    await page.getByRole('button', { name: 'Pause delivery' }).waitFor();
    await expect(ctx.db.selectFrom('apps').select('delivery_paused_at').where('id', '=', app.id).executeTakeFirstOrThrow()).resolves.toEqual({ delivery_paused_at: null });
    expect(expectedRefusals(errors)).toEqual([]);
    await context.close();
  });
});
