import type { Browser, Page } from 'playwright-core';
import { createChannel } from '../../../server/src/core/commands/channels.js';
import { newMessageUid } from '../../../server/src/store/ids.js';
import { insertMessages, messageRow, type MessageFields } from '../../../server/src/store/rows/messages.js';
import type { UsersTable } from '../../../server/src/store/schema.js';
import { openWatchedPage, type WatchedPage } from '../../../server/test/helpers/browser.js';
import type { TestServer } from '../../../server/test/helpers/server.js';

export const PASSWORD = 'correct horse battery staple';

/**
 * The people of a browser test: Alice (whose email and password also open an account in a second team,
 * so she picks the team) and Bob, in a channel "general" with a purpose.
 */
export async function webCast(t: TestServer) {
  const team = await t.f.team('Northwind');
  const otherTeam = await t.f.team('Southwind');
  const alice = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer', password: PASSWORD, timezone: '+01:00' });
  await t.f.person(otherTeam.id, { email: alice.email!, firstName: 'Alice', lastName: 'Elsewhere', password: PASSWORD });
  const bob = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker', password: PASSWORD });
  const { channel } = await createChannel(t.server.ctx, { user: alice, appId: null }, { name: 'general', purpose: 'Company-wide announcements and chatter', type: 'public', members: [bob.id] });
  return { team, alice, bob, channel };
}

/**
 * Writes history straight into the store, oldest first, one message every `gapMs` ending at `endAt`
 * (now): fast for long histories, and the only way to store rows no API would accept (the XSS corpus).
 */
export async function writeHistory(
  t: TestServer,
  chat: { id: string; team_id: string },
  from: UsersTable,
  messages: Array<Partial<MessageFields> & { text: string }>,
  gapMs = 60_000,
  endAt = Date.now(),
) {
  const start = endAt - messages.length * gapMs;
  const rows = messages.map((message, index) =>
    messageRow({
      uid: newMessageUid(start + index * gapMs),
      chat_key: chat.id,
      team_id: chat.team_id,
      from_user_id: from.id,
      to_id: chat.id,
      timestamp: start + index * gapMs,
      ...message,
    }),
  );
  await insertMessages(t.testStore.store.db, rows);
  return rows;
}

/** Fills in and sends the sign-in form as `email` (picking `team` when asked); waits for nothing after. */
export async function submitSignIn(page: Page, t: TestServer, email: string, team?: string): Promise<void> {
  await page.goto(`${t.url}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (team) {
    await page.getByRole('radio', { name: team }).check();
    await page.getByRole('button', { name: 'Sign in to this team' }).click();
  }
}

/** Signs `page` in as `email` and waits for the first conversation's history. */
export async function signInOn(page: Page, t: TestServer, email: string, team?: string): Promise<void> {
  await submitSignIn(page, t, email, team);
  await page.getByRole('region', { name: 'Message history' }).waitFor();
}

/** A new browser context signed in through the page as `email` (picking `team` when asked), at its first conversation. */
export async function signInPage(browser: Browser, t: TestServer, email: string, team?: string, view?: Parameters<typeof openWatchedPage>[1]): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser, view);
  await signInOn(watched.page, t, email, team);
  return watched;
}

/** A new browser context signed in through the page as `email`, once its sidebar is drawn (for people who may have no conversation yet). */
export async function signInToSidebar(browser: Browser, t: TestServer, email: string, view?: Parameters<typeof openWatchedPage>[1]): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser, view);
  await submitSignIn(watched.page, t, email);
  await watched.page.locator('.sidebar-footer').waitFor({ state: 'attached' });
  return watched;
}

/** A new browser context signed in as `email`, at `path` of the developer dashboard (/dev…). */
export async function openDashboardPage(browser: Browser, t: TestServer, email: string, path: string): Promise<WatchedPage> {
  const watched = await openWatchedPage(browser);
  await submitSignIn(watched.page, t, email);
  await watched.page.getByRole('link', { name: 'Developer' }).waitFor();
  await watched.page.goto(`${t.url}${path}`);
  return watched;
}

/**
 * The history has settled at its newest message (measured rows, scrolled to the end), and nothing has
 * the focus: a blinking caret would make each run's picture differ.
 */
export async function settledAtBottom(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await settledHistory(page, { atBottom: true });
}

/**
 * The history's height has stayed the same for three frames: every row shown is measured, so nothing
 * moves the view any more (with `atBottom`, the view is at the end too).
 */
async function settledHistory(page: Page, { atBottom = false } = {}) {
  await page.getByRole('region', { name: 'Message history' }).evaluate(
    (element, atBottom) =>
      new Promise<void>((resolve) => {
        let steady = 0;
        let last = -1;
        const check = () => {
          const placed = !atBottom || element.scrollHeight - element.scrollTop - element.clientHeight < 2;
          steady = placed && element.scrollHeight === last ? steady + 1 : 0;
          last = element.scrollHeight;
          if (steady >= 3) resolve();
          else requestAnimationFrame(check);
        };
        check();
      }),
    atBottom,
  );
}

/**
 * Scrolls the history to its top or its end as a person's scroll does: the browser moves the view and
 * fires its scroll event in the same frame, before any script runs. A script's `scrollTop = 0` alone
 * fires that event only at the next frame, and the list's anchoring of rows measured in between (its
 * own and the virtualizer's) would put the view back before it learns that it moved.
 */
export async function scrollHistory(page: Page, to: 'top' | 'end') {
  await page.getByRole('region', { name: 'Message history' }).evaluate((element, to) => {
    element.scrollTop = to === 'top' ? 0 : element.scrollHeight;
    element.dispatchEvent(new Event('scroll'));
  }, to);
}

/**
 * The pages a browser test file signs in: `signInAs(email)` opens one at the person's conversations,
 * `closeAll(except?)` checks that each logged no error (but `except`) and closes them all. `suite` is read
 * at each call (its browser and server exist once the suite has started).
 */
export function signedInPages(suite: { browser: Browser; t: TestServer }) {
  const opened: WatchedPage[] = [];
  return {
    async signInAs(email: string): Promise<WatchedPage> {
      const watched = await openWatchedPage(suite.browser);
      opened.push(watched);
      await submitSignIn(watched.page, suite.t, email);
      await watched.page.getByRole('navigation', { name: 'Conversations' }).waitFor();
      return watched;
    },
    async closeAll(except?: WatchedPage): Promise<void> {
      for (const watched of opened.splice(0)) {
        if (watched !== except) watched.expectNoErrors();
        await watched.context.close();
      }
    },
  };
}

/** Chromium logs every 4xx as a console error: a refusal the test asked for is not one of the page's errors. */
export function forgetRefusal(watched: WatchedPage, status: number): void {
  const at = watched.errors.findIndex((error) => error.includes(`status of ${status} `));
  if (at < 0) throw new Error(`no ${status} among the page's errors: ${watched.errors.join('\n')}`);
  watched.errors.splice(at, 1);
}
