import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { noBrowser, seriousAccessibilityViolations } from '../../../server/test/helpers/browser.js';
import { signInPage } from './cast.js';
import { saveScreenshot, webSuite } from './suite.js';

/**
 * Threads in the web client (issue 23), two people at once: Alice at 1280 px replies to Bob's message in a
 * thread from its hover tools (the side panel); Bob, on a phone (390 px), sees "1 reply" appear live under
 * his message, opens the thread (the whole view), answers with "Also send to the channel", and Alice sees
 * that reply in the panel and in the channel. Alice's "Threads" view lists the thread. In light and dark.
 */
const web = webSuite();

const history = (page: Page) => page.getByRole('region', { name: 'Message history' });
const messageWith = (page: Page, text: string) => history(page).getByRole('article').filter({ hasText: text });
/** Waits until the thread panel shows this reply exactly once. */
const replyShown = (panel: ReturnType<Page['getByRole']>, text: string) => expect.poll(() => panel.getByRole('listitem').filter({ hasText: text }).count(), { timeout: 15_000 }).toBe(1);

describe.skipIf(noBrowser)('threads', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`replies in a thread, live for the other person, with "Also send to the channel" (${colorScheme})`, { timeout: 120_000 }, async () => {
      const name = `launch-${colorScheme}`;
      const question = `Which day do we launch, ${colorScheme}?`;
      const { channel } = await createChannel(web.t.server.ctx, web.cast.alice, { name, purpose: 'Launch plans', members: [web.cast.bob.id] }, Date.now());
      const alice = await signInPage(web.browser, web.t, web.cast.alice.email!, 'Northwind', { colorScheme });
      await alice.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await alice.page.getByRole('heading', { name, level: 1 }).waitFor();
      const bob = await signInPage(web.browser, web.t, web.cast.bob.email!, undefined, { colorScheme, width: 390, height: 800 });
      await bob.page.goto(`${web.t.url}/c/${encodeURIComponent(channel.id)}`);
      await bob.page.getByRole('heading', { name, level: 1 }).waitFor();
      const composer = bob.page.getByRole('textbox', { name: /Message/ });
      await composer.fill(question);
      await composer.press('Enter');
      await messageWith(alice.page, question).waitFor();

      // Alice replies in a thread from the hover tools: the side panel.
      const asked = messageWith(alice.page, question);
      await asked.hover();
      await asked.getByRole('button', { name: /^Reply in a thread/ }).click();
      const alicePanel = alice.page.getByRole('complementary', { name: 'Thread', exact: true });
      await alicePanel.getByRole('textbox', { name: 'Reply in the thread' }).fill('Thursday, after the review');
      await alicePanel.getByRole('button', { name: 'Reply', exact: true }).click();
      await replyShown(alicePanel, 'Thursday, after the review');
      // The reply stays out of the channel; the count under the parent changes live for Bob.
      const summary = messageWith(bob.page, question).getByRole('button', { name: /^1 reply from Alice/ });
      await summary.waitFor();
      expect(await messageWith(bob.page, 'Thursday, after the review').count()).toBe(0);
      await summary.click();
      const bobPanel = bob.page.getByRole('complementary', { name: 'Thread', exact: true });
      await replyShown(bobPanel, 'Thursday, after the review');
      await bobPanel.getByRole('textbox', { name: 'Reply in the thread' }).fill('Thursday works for me');
      await bobPanel.getByRole('checkbox', { name: 'Also send to the channel' }).check();
      expect(await seriousAccessibilityViolations(bob.page)).toEqual([]);
      await saveScreenshot(bob.page, `thread-390-${colorScheme}`);
      await bobPanel.getByRole('button', { name: 'Reply', exact: true }).click();
      await replyShown(bobPanel, 'Thursday works for me');
      // Alice sees it in her panel and, also sent to the channel, in its history; the summary says 2 replies.
      await expect.poll(() => alicePanel.getByRole('list', { name: 'Replies' }).getByRole('listitem').count()).toBe(2);
      await replyShown(alicePanel, 'Thursday works for me');
      await messageWith(alice.page, 'Thursday works for me').getByRole('button', { name: 'Replied in a thread' }).waitFor();
      await messageWith(alice.page, question).getByRole('button', { name: /^2 replies/ }).waitFor();
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await alice.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await saveScreenshot(alice.page, `thread-${colorScheme}`);

      // Alice's Threads view lists the thread she follows.
      await alicePanel.getByRole('button', { name: 'Close' }).click();
      await alice.page.getByRole('button', { name: 'Threads', exact: true }).click();
      const threads = alice.page.getByRole('dialog', { name: /^Threads/ });
      await threads.getByRole('link', { name: new RegExp(`Which day do we launch, ${colorScheme}`) }).waitFor();
      expect(await seriousAccessibilityViolations(alice.page)).toEqual([]);
      await saveScreenshot(alice.page, `threads-view-${colorScheme}`);

      alice.expectNoErrors();
      bob.expectNoErrors();
      await Promise.all([alice.context.close(), bob.context.close()]);
    });
  }
});
