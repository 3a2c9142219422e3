import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from '../helpers/browser.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { http, sessionFor } from '../client/harness.js';

/**
 * CSRF from a second origin in a real browser (Debian's Chromium, driven by playwright-core): the
 * victim signs in on the server's own origin, so the browser holds the session cookie; then a page on
 * another port of the same host (same site, so SameSite=Lax still sends the cookie) posts forms and
 * no-cors fetches to a method, the developer API and the session. Nothing may happen. Without Chromium the
 * file is skipped, except under CI, where a missing browser is a failure.
 */
const skip = noBrowser;

const password = 'correct horse battery staple';
/** How long one attack may take to play out before the test gives up. */
const ATTACK_TIMEOUT_MS = 20_000;

let browser: Browser | undefined;
beforeAll(async () => {
  if (skip) return;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The attacker's site: one page, on its own loopback port, that fires every request at once. */
async function startAttackerSite(page: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function attackPage(target: string, posts: Array<{ path: string; fields: Record<string, string> }>): string {
  const escape = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  const forms = posts
    .map(({ path, fields }, i) => {
      const inputs = Object.entries(fields).map(([name, value]) => `<input name="${escape(name)}" value="${escape(value)}">`);
      return `<iframe name="sink${i}"></iframe><form method="POST" action="${escape(target + path)}" target="sink${i}">${inputs.join('')}</form>`;
    })
    .join('\n');
  const fetches = posts.map(({ path, fields }) => ({ url: target + path, body: JSON.stringify(fields) }));
  return `<!doctype html><body>${forms}
<script>
  for (const form of document.forms) form.submit();
  window.fetchesDone = Promise.all(${JSON.stringify(fetches)}.map((request) =>
    fetch(request.url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: request.body })
  )).then(() => 'done');
</script></body>`;
}

/** Resolves with the first `count` POST answers the page receives from `origin`; rejects after ATTACK_TIMEOUT_MS. */
function postAnswersFrom(page: Page, origin: string, count: number): Promise<Response[]> {
  return new Promise((resolve, reject) => {
    const seen: Response[] = [];
    const timer = setTimeout(() => reject(new Error(`only ${seen.length} of ${count} answers from ${origin} arrived`)), ATTACK_TIMEOUT_MS);
    page.on('response', (response) => {
      if (!response.url().startsWith(origin) || response.request().method() !== 'POST') return;
      seen.push(response);
      if (seen.length === count) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

async function sessionCookieValue(page: Page, serverUrl: string): Promise<string | undefined> {
  return (await page.context().cookies(serverUrl)).find((cookie) => cookie.name === 'aviary_session')?.value;
}

forEachDialect('CSRF from another origin in Chromium', (t) => {
  it.skipIf(skip)('a page of another port of the same host cannot post messages, create apps or sign the victim in as someone else; the server’s own page can', async () => {
    const server: TestServer = t();
    const team = await server.f.team();
    const victim = await server.f.person(team.id, { password });
    const attacker = await server.f.person(team.id, { password: 'the attacker’s own password' });
    const friend = await sessionFor(server, await server.f.person(team.id));

    const context = await browser!.newContext();
    const page = await context.newPage();
    try {
      // The victim signs in on the server's own origin: a same-origin fetch, as the web client does.
      await page.goto(`${server.url}/widget.js`);
      const signIn = await page.evaluate(async (body) => {
        const response = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return response.status;
      }, JSON.stringify({ email: victim.email, password }));
      expect(signIn).toBe(200);
      const victimCookie = await sessionCookieValue(page, server.url);
      expect(victimCookie).toMatch(/^as_s_/);

      const attack = await startAttackerSite(
        attackPage(server.url, [
          { path: '/v1/chat.sendFromComposer', fields: { to: friend.user.id, text: 'forged' } },
          { path: '/v1/apps.create', fields: { name: 'Forged app' } },
          { path: '/api/session', fields: { email: attacker.email!, password: 'the attacker’s own password' } },
        ]),
      );
      try {
        const answers = postAnswersFrom(page, server.url, 6);
        await page.goto(`${attack.url}/`);
        expect(await page.evaluate('window.fetchesDone')).toBe('done');
        const statuses = (await answers).map((answer) => `${answer.status()} ${new URL(answer.url()).pathname}`).sort();
        // A method reads its body before its caller: the text/plain fetch is refused for its body (400), the form for its origin (403).
        expect(statuses).toEqual([
          '400 /v1/apps.create',
          '400 /v1/chat.sendFromComposer',
          '403 /api/session',
          '403 /api/session',
          '403 /v1/apps.create',
          '403 /v1/chat.sendFromComposer',
        ]);
      } finally {
        attack.server.closeAllConnections();
        await new Promise((resolve) => attack.server.close(resolve));
      }

      // Nothing happened: no message, no app, and the browser still holds the victim's own session.
      expect(await sessionCookieValue(page, server.url)).toBe(victimCookie);
      const asVictim = { authorization: `Bearer ${victimCookie}` };
      expect((await http(server.url, 'POST', '/v1/apps.listDeveloped', { headers: asVictim })).body.apps).toEqual([]);
      const inbox = await friend.call('chat.fetchMessages', { chat: victim.id });
      expect(inbox.body).toEqual([]);

      // The server's own page, with the same cookie, may.
      await page.goto(`${server.url}/widget.js`);
      const sent = await page.evaluate(async (body) => {
        const response = await fetch('/v1/chat.sendFromComposer', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return response.status;
      }, JSON.stringify({ to: friend.user.id, text: 'from the real client' }));
      expect(sent).toBe(200);
      expect((await friend.call('chat.fetchMessages', { chat: victim.id })).body).toMatchObject([{ text: 'from the real client' }]);
    } finally {
      await context.close();
    }
  });
});
