import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, openWatchedPage, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { PASSWORD, settledAtBottom, submitSignIn, writeHistory } from './cast.js';
import { startWidgetApp, type WidgetApp } from './widgetApp.js';
import { browserSuite, saveScreenshot } from './suite.js';

/**
 * The main screens, light and dark, wide and narrow, written to docs/screenshots/ by every run so the
 * pictures in the docs stay true; axe-core checks each screen as it is taken.
 */
let relay: WidgetApp | undefined;
const web = browserSuite({ close: async () => relay?.close() });

async function demoTeam() {
  const team = await web.t.f.team('Northwind Labs');
  const maya = await web.t.f.person(team.id, { firstName: 'Maya', lastName: 'Okafor', password: PASSWORD, timezone: '+01:00', role: 'admin' });
  const lucas = await web.t.f.person(team.id, { firstName: 'Lucas', lastName: 'Silva' });
  const priya = await web.t.f.person(team.id, { firstName: 'Priya', lastName: 'Raman' });
  await web.t.f.person(team.id, { firstName: 'Noah', lastName: 'Fischer' });
  await web.t.f.person(team.id, { firstName: 'Elena', lastName: 'Petrova' });
  const app = await web.t.f.app(team.id, maya.id, { name: 'Deploybot', description: 'Ships builds and reports how they went' });
  await web.t.f.install(app.id, maya.id);
  const { botUserId } = await web.t.f.bot(app.id);
  const bot = await web.t.testStore.store.db.selectFrom('users').selectAll().where('id', '=', botUserId).executeTakeFirstOrThrow();
  const { channel } = await createChannel(web.t.server.ctx, { user: maya, appId: null }, { name: 'engineering', purpose: 'Builds, releases and on-call', type: 'public', members: [lucas.id, priya.id] });
  await createChannel(web.t.server.ctx, { user: maya, appId: null }, { name: 'design', purpose: 'Reviews and critique', type: 'public', members: [lucas.id] });
  await createChannel(web.t.server.ctx, { user: maya, appId: null }, { name: 'leadership', type: 'private', members: [priya.id] });
  const chat = { id: channel.id, team_id: team.id };
  // A fixed day, so that the pictures change only when the page does.
  const day = Date.UTC(2026, 2, 12);
  await writeHistory(web.t, chat, lucas, [{ text: 'Morning! The 2.4 branch is cut; release candidate builds are running.' }, { text: 'I will watch the canary dashboards until noon.' }], 45 * 60_000, day + 9 * 3_600_000);
  await writeHistory(web.t, chat, priya, [
    { text: 'Thanks Lucas. The migration for the audit log is in this one too, so expect a slower first boot.' },
    {
      text: 'Maya, can you check the release notes?',
      serviceml: `<serviceml><user userId="${maya.id}">@Maya</user>, can you check the <b>release notes</b> before we tag? Draft: <a href="https://example.com/notes">notes</a></serviceml>`,
    },
  ], 40 * 60_000, day + 10 * 3_600_000);
  await writeHistory(web.t, chat, bot, [
    {
      text: 'Build 2.4.0-rc.1 passed',
      app_id: app.id,
      attachments: JSON.stringify([
        {
          id: 'build',
          appId: app.id,
          title: 'Build 2.4.0-rc.1 passed',
          url: 'https://example.com/builds/241',
          color: '#2e9e5b',
          description: '1,284 tests in 6 min 12 s · 3 artifacts',
          downloads: [{ src: 'https://example.com/builds/241/aviary-2.4.0-rc.1.tgz', filename: 'aviary-2.4.0-rc.1.tgz', size: 18_400_000 }],
          buttons: [
            { id: 'promote', name: 'Promote to canary', action: { type: 'sendEvent' } },
            { id: 'logs', name: 'Open logs', action: { type: 'sendEvent' } },
          ],
        },
      ]),
    },
  ], 60_000, day + 10.5 * 3_600_000);
  await writeHistory(web.t, chat, maya, [{ text: 'Looks good. Promoting after lunch.\nPriya, notes are fine by me.' }], 60_000, day + 10.6 * 3_600_000);
  return { maya, team };
}


async function signIn(page: Page, email: string) {
  await submitSignIn(page, web.t, email);
  await page.getByRole('region', { name: 'Message history' }).getByText('Promoting after lunch').waitFor();
}

it.skipIf(noBrowser)('the main screens, light and dark, 1280 px and 360 px', async () => {
  const { maya } = await demoTeam();
  for (const colorScheme of ['light', 'dark'] as const) {
    const wide = await openWatchedPage(web.browser, { colorScheme });
    await wide.page.goto(`${web.t.url}/signin`);
    await wide.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await saveScreenshot(wide.page, `signin-${colorScheme}`);
    await signIn(wide.page, maya.email!);
    await wide.page.getByRole('link', { name: 'engineering' }).click();
    await wide.page.getByRole('button', { name: 'Promote to canary' }).waitFor();
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await settledAtBottom(wide.page);
    await saveScreenshot(wide.page, `conversation-1280-${colorScheme}`);
    await wide.page.keyboard.press('Control+k');
    await wide.page.getByRole('combobox', { name: 'Conversation name' }).fill('de');
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `switcher-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('button', { name: 'Create a channel' }).click();
    await wide.page.getByLabel('Name').fill('design-reviews');
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `create-channel-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('button', { name: 'Browse channels' }).click();
    await wide.page.getByRole('list', { name: 'Public channels' }).waitFor();
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `browse-channels-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('link', { name: 'engineering' }).click();
    await wide.page.getByRole('button', { name: '3 members' }).click();
    await wide.page.getByRole('list', { name: '3 members' }).waitFor();
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `members-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('button', { name: 'New direct message' }).click();
    await wide.page.getByRole('searchbox', { name: 'Find a person' }).fill('a');
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `new-direct-message-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('button', { name: /^Your profile/ }).click();
    await wide.page.getByRole('dialog', { name: 'Your profile' }).waitFor();
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `profile-${colorScheme}`);
    await wide.page.keyboard.press('Escape');
    await wide.page.getByRole('link', { name: 'App directory' }).click();
    await wide.page.getByRole('heading', { name: 'Deploybot' }).waitFor();
    expect(await seriousAccessibilityViolations(wide.page)).toEqual([]);
    await saveScreenshot(wide.page, `apps-${colorScheme}`);
    wide.expectNoErrors();
    await wide.context.close();

    const narrow = await openWatchedPage(web.browser, { colorScheme, width: 360, height: 740 });
    await signIn(narrow.page, maya.email!);
    await narrow.page.goto(`${web.t.url}/`);
    await narrow.page.getByRole('region', { name: 'Message history' }).getByText('Promoting after lunch').waitFor();
    expect(await seriousAccessibilityViolations(narrow.page)).toEqual([]);
    await settledAtBottom(narrow.page);
    await saveScreenshot(narrow.page, `conversation-360-${colorScheme}`);
    await narrow.page.getByRole('button', { name: 'Show conversations' }).click();
    await saveScreenshot(narrow.page, `sidebar-360-${colorScheme}`);
    await narrow.page.getByRole('link', { name: 'engineering' }).click();
    await narrow.page.getByRole('button', { name: '3 members' }).click();
    await narrow.page.getByRole('list', { name: '3 members' }).waitFor();
    expect(await seriousAccessibilityViolations(narrow.page)).toEqual([]);
    await saveScreenshot(narrow.page, `members-360-${colorScheme}`);
    await narrow.page.keyboard.press('Escape');
    await narrow.page.getByRole('button', { name: 'Show conversations' }).click();
    await narrow.page.getByRole('button', { name: /^Your profile/ }).click();
    await narrow.page.getByRole('dialog', { name: 'Your profile' }).waitFor();
    expect(await seriousAccessibilityViolations(narrow.page)).toEqual([]);
    await saveScreenshot(narrow.page, `profile-360-${colorScheme}`);
    narrow.expectNoErrors();
    await narrow.context.close();
  }
});

it.skipIf(noBrowser)('app surfaces, light and dark: a widget in a modal, messages picked for an action, the action’s toast', async () => {
  const { maya, team } = await demoTeam();
  relay = await startWidgetApp(web.t, {
    teamId: team.id,
    developerId: maya.id,
    name: 'Relay',
    integrations: (origin: string) => ({
      slashCommands: [{ name: 'board', description: 'The deploy board', action: { type: 'openWidget', url: `${origin}/widget/board` } }],
      messageAction: { name: 'File as ticket', action: { type: 'sendEvent' } },
    }),
  });
  relay.answer = (event) => ('messageUids' in event ? { text: `Filed ${event.messageUids.length} messages as ticket OPS-112` } : undefined);
  await web.t.f.install(relay.app.id, maya.id);
  for (const colorScheme of ['light', 'dark'] as const) {
    const { page, context, expectNoErrors } = await openWatchedPage(web.browser, { colorScheme });
    await signIn(page, maya.email!);
    await page.getByRole('link', { name: 'engineering' }).click();
    const history = page.getByRole('region', { name: 'Message history' });
    await history.getByText('Promoting after lunch').waitFor();

    const composer = page.getByRole('textbox', { name: /Message #engineering/ });
    await composer.fill('/board');
    await page.getByRole('option', { name: /\/board/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    const frame = await (await page.locator('dialog iframe.widget-frame').elementHandle())!.contentFrame();
    await frame!.getByText('Verified: client.slashCommand as modal on desktop').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await saveScreenshot(page, `widget-modal-${colorScheme}`);
    await page.getByRole('button', { name: 'Close the widget' }).click();

    const row = (text: string) => history.getByRole('article').filter({ hasText: text });
    await row('The migration for the audit log').getByRole('button', { name: /^Select the message/ }).click();
    await row('can you check the').getByRole('checkbox').click({ modifiers: ['Shift'] });
    const bar = page.getByRole('toolbar', { name: 'Selected messages' });
    await bar.getByText('2 messages selected').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await settledAtBottom(page);
    await page.mouse.move(0, 0);
    await saveScreenshot(page, `multi-select-${colorScheme}`);

    await bar.getByRole('button', { name: 'File as ticket' }).click();
    await page.getByRole('status').getByText('Filed 2 messages as ticket OPS-112').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await settledAtBottom(page);
    await saveScreenshot(page, `message-action-${colorScheme}`);
    expectNoErrors();
    await context.close();
  }
});
