import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { noBrowser } from '../../../server/test/helpers/browser.js';
import { signInPage } from './cast.js';
import { webSuite } from './suite.js';
import { startWidgetApp, type WidgetApp } from './widgetApp.js';

/**
 * An app's home tab (the `appHome` integration), from the real page in Chromium: opened from the sidebar
 * and from the app directory, it is the app's widget in the panel beside the conversation, at a URL
 * whose event token the app's own server verifies with the SDK (widgetApp.ts: the verdict is written
 * into the page inside the frame).
 */
let home: WidgetApp;

const web = webSuite({
  start: async () => {
    home = await startWidgetApp(web.t, {
      teamId: web.cast.team.id,
      developerId: web.cast.alice.id,
      name: 'Harbor',
      integrations: (origin: string) => ({ appHome: { url: `${origin}/widget/home` } }),
    });
    await web.t.f.install(home.app.id, web.cast.bob.id);
  },
  close: async () => home?.close(),
});

async function frameOf(page: Page, selector: string): Promise<Frame | null> {
  const handle = await page.locator(selector).elementHandle();
  return (await handle?.contentFrame()) ?? null;
}

/** The home widget in the side panel: its URL verified by the app's server, and the verdict shown inside the frame. */
async function expectHomeShown(page: Page, visitNumber: number): Promise<void> {
  const panel = page.getByRole('complementary', { name: 'Harbor widget' });
  await panel.waitFor();
  const src = await panel.locator('iframe.widget-frame').getAttribute('src');
  expect(src).toMatch(new RegExp(`^${home.origin}/widget/home\\?serviceEvent=.*&serviceEventToken=`));
  const visit = (await home.waitForVisits('/widget/home', visitNumber))[visitNumber - 1]!;
  expect(visit, JSON.stringify(visit)).toMatchObject({ verified: true, widgetType: 'sidebar', client: 'desktop', claims: { appId: home.app.id, userId: web.cast.bob.id } });
  expect(visit.event).toEqual({ name: 'client.pressButton', userId: web.cast.bob.id, userName: 'Bob Baker', chat: web.cast.bob.id, chatName: 'Bob Baker', button: 'appHome' });
  const frame = await frameOf(page, 'aside iframe.widget-frame');
  await frame!.getByText('Verified: client.pressButton as sidebar on desktop').waitFor();
}

describe.skipIf(noBrowser)('app home', () => {
  it('opens the home widget, with a signed URL the app verifies, from the sidebar and from the app directory', async () => {
    const { page, context, expectNoErrors } = await signInPage(web.browser, web.t, web.cast.bob.email!);
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Harbor' }).click();
    await expectHomeShown(page, 1);
    await page.getByRole('button', { name: 'Close the widget' }).click();

    await page.getByRole('link', { name: 'App directory' }).click();
    await page.getByRole('button', { name: 'Open Harbor' }).click();
    await expectHomeShown(page, 2);
    expectNoErrors();
    await context.close();
  });

  it('offers no home to a person who has not installed the app', async () => {
    const { page, context, expectNoErrors } = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind');
    await page.getByRole('link', { name: 'App directory' }).click();
    await page.getByRole('heading', { name: 'Harbor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Open Harbor' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'Harbor' }).count()).toBe(0);
    expectNoErrors();
    await context.close();
  });
});
