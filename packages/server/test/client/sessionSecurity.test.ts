import { expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { forEachDialect } from '../helpers/server.js';
import { expectError, http, sessionFor } from './harness.js';

/** The servers' clock: rate-limit buckets refill only when a test moves it. */
let clock = Date.now();
const password = 'correct horse battery staple';

const json = (value: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(value) });

/** Signs a new person in with their password and gives the cookie the browser would keep. */
async function signedInWithCookie(t: TestServer, teamId?: string) {
  const team = teamId ?? (await t.f.team()).id;
  const user = await t.f.person(team, { password });
  const answer = await http(t.url, 'POST', '/api/session', { json: { email: user.email, password } });
  expect(answer.status).toBe(200);
  // Beside the device cookie (deviceCookie.test.ts).
  const setCookie = answer.headers.getSetCookie().find((value) => value.startsWith('aviary_session='))!;
  return { user, setCookie, cookie: setCookie.split(';')[0], sessionToken: answer.body.sessionToken as string };
}

async function messagesIn(t: TestServer, reader: { sessionToken: string }, chat: string): Promise<unknown[]> {
  const page = await http(t.url, 'POST', '/v1/chat.fetchMessages', { json: { chat }, headers: { authorization: `Bearer ${reader.sessionToken}` } });
  expect(page.status).toBe(200);
  return page.body;
}

forEachDialect(
  'sessions: cookies, cross-site requests, security headers, several teams',
  (t) => {
    it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ and not Secure over http; an undecodable or over-long cookie is no session', async () => {
      const { cookie, setCookie } = await signedInWithCookie(t());
      expect(setCookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Lax']);
      const conversations = (headers: Record<string, string>) => http(t().url, 'POST', '/v1/chat.listConversations', { headers, json: {} });
      expect((await conversations({ cookie })).status).toBe(200);
      for (const bad of ['aviary_session=%', 'aviary_session=%E0%A4%A', `aviary_session=as_s_${'x'.repeat(5000)}`, 'aviary_session=']) {
        expectError(await conversations({ cookie: bad }), { status: 401, error: 'NotSignedIn' });
      }
      const signedOut = await http(t().url, 'DELETE', '/api/session', { headers: { cookie } });
      expect(signedOut.status).toBe(200);
      expect(signedOut.headers.get('set-cookie')).toBe('aviary_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
      expectError(await conversations({ cookie }), { status: 401, error: 'NotSignedIn' });
    });

    it('refuses cookie-authenticated changes from another origin or without JSON; the server’s own pages and bearer tokens get through', async () => {
      const team = await t().f.team();
      const victim = await signedInWithCookie(t(), team.id);
      const friend = await sessionFor(t(), await t().f.person(team.id));
      const message = json({ to: friend.user.id, text: 'forged' });
      const sameSitePort = t().url.replace(/:\d+$/, ':1');

      const crossSite: Array<Record<string, string>> = [
        { origin: sameSitePort },
        { origin: 'https://attacker.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of crossSite) {
        const refused = await http(t().url, 'POST', '/v1/chat.sendFromComposer', { headers: { cookie: victim.cookie, 'content-type': message['content-type'], ...headers }, body: message.body });
        expectError(refused, { status: 403, error: 'CrossSiteRequest' });
      }
      // What a form or a no-cors fetch can send without an Origin (older browsers): not JSON, so refused.
      for (const [contentType, body] of [
        ['application/x-www-form-urlencoded', `to=${encodeURIComponent(friend.user.id)}&text=forged`],
        ['text/plain', message.body],
        ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="text"\r\n\r\nforged\r\n--x--\r\n`],
      ]) {
        const refused = await http(t().url, 'POST', '/v1/chat.sendFromComposer', { headers: { cookie: victim.cookie, 'content-type': contentType }, body });
        expectError(refused, { status: 400, error: 'InvalidRequestData' });
      }
      expect(await messagesIn(t(), friend, victim.user.id)).toEqual([]);

      // The developer methods and sign-out: the same rule; nothing is created, the session lives on.
      const listApps = async () => (await http(t().url, 'POST', '/v1/apps.listDeveloped', { headers: { cookie: victim.cookie, 'content-type': 'application/json' }, body: '{}' })).body.apps;
      const appsBefore = (await listApps()).length;
      expectError(
        await http(t().url, 'POST', '/v1/apps.create', { headers: { cookie: victim.cookie, origin: sameSitePort, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Forged' }) }),
        { status: 403, error: 'CrossSiteRequest' },
      );
      expectError(await http(t().url, 'DELETE', '/api/session', { headers: { cookie: victim.cookie, origin: sameSitePort } }), { status: 403, error: 'CrossSiteRequest' });
      expect(await listApps()).toHaveLength(appsBefore);

      // The server's own pages: Origin is the server's, or Sec-Fetch-Site says same-origin.
      const ownPages: Array<Record<string, string>> = [{ origin: t().url }, { 'sec-fetch-site': 'same-origin' }, {}];
      for (const headers of ownPages) {
        const sent = await http(t().url, 'POST', '/v1/chat.sendFromComposer', { headers: { cookie: victim.cookie, 'content-type': 'application/json', ...headers }, body: message.body });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      }
      // A bearer token is never added by a browser on its own, so it needs no Origin check.
      const bearer = await http(t().url, 'POST', '/v1/chat.sendFromComposer', {
        headers: { authorization: `Bearer ${victim.sessionToken}`, origin: 'https://elsewhere.example', 'content-type': 'application/json' },
        body: message.body,
      });
      expect(bearer.status).toBe(200);
      expect(await messagesIn(t(), friend, victim.user.id)).toHaveLength(4);
    });

    it('refuses a cross-site sign-in (login CSRF) before looking at the credentials', async () => {
      const user = await t().f.person((await t().f.team()).id, { password });
      const body = JSON.stringify({ email: user.email, password });
      const refused = await http(t().url, 'POST', '/api/session', { headers: { origin: 'http://127.0.0.1:1', 'content-type': 'application/json' }, body });
      expectError(refused, { status: 403, error: 'CrossSiteRequest' });
      expect(refused.headers.get('set-cookie')).toBeNull();
      const form = await http(t().url, 'POST', '/api/session', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: user.email!, password }).toString(),
      });
      expectError(form, { status: 400, error: 'InvalidRequestData' });
      expect(form.headers.get('set-cookie')).toBeNull();
      const own = await http(t().url, 'POST', '/api/session', { headers: { origin: t().url, 'content-type': 'application/json' }, body });
      expect(own.status).toBe(200);
    });

    it('sends nosniff and Referrer-Policy everywhere, and no-store on the API and on errors', async () => {
      const { cookie } = await signedInWithCookie(t());
      const answers = {
        signIn: await http(t().url, 'POST', '/api/session', { json: { email: 'nobody@example.test', password } }),
        session: await http(t().url, 'POST', '/v1/chat.listConversations', { headers: { cookie }, json: {} }),
        notSignedIn: await http(t().url, 'POST', '/v1/apps.listDeveloped'),
        method: await http(t().url, 'GET', '/v1/chat.sendMessage'),
        openapi: await http(t().url, 'GET', '/v1/openapi.json'),
        notFound: await http(t().url, 'GET', '/nothing/here'),
        crossSite: await http(t().url, 'POST', '/v1/chat.sendFromComposer', { headers: { cookie, origin: 'https://attacker.example' } }),
      };
      for (const [name, answer] of Object.entries(answers)) {
        expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(answer.headers.get('referrer-policy'), name).toBe('no-referrer');
        expect(answer.headers.get('cache-control'), name).toBe('no-store');
        expect(answer.headers.get('content-security-policy'), name).toBeNull();
      }
      const script = await http(t().url, 'GET', '/widget.js');
      expect(script.headers.get('x-content-type-options')).toBe('nosniff');
      expect(script.headers.get('cache-control')).toBe('public, max-age=300');
    });

    it('signs in to each team of an email; a password that opens several accounts asks which team, and never names a team for a wrong one', async () => {
      const [north, south, west] = [await t().f.team('North'), await t().f.team('South'), await t().f.team('West')];
      const email = `shared-${Date.now()}@example.test`;
      const inNorth = await t().f.person(north.id, { email, password });
      const inSouth = await t().f.person(south.id, { email, password });
      const inWest = await t().f.person(west.id, { email, password: 'another password entirely' });
      const signIn = (fields: Record<string, unknown>) => http(t().url, 'POST', '/api/session', { json: { email, ...fields } });

      const choose = await signIn({ password });
      expectError(choose, { status: 409, error: 'TeamRequired' });
      expect(choose.body.teams).toEqual([
        { id: north.id, name: 'North' },
        { id: south.id, name: 'South' },
      ]);
      expect(choose.headers.get('set-cookie')).toBeNull();
      expect((await signIn({ password, teamId: north.id })).body.user.id).toBe(inNorth.id);
      expect((await signIn({ password, teamId: south.id })).body.user.id).toBe(inSouth.id);
      // One account opened: one-team sign-in as before.
      expect((await signIn({ password: 'another password entirely' })).body.user.id).toBe(inWest.id);

      const wrong = await signIn({ password: 'wrong' });
      expectError(wrong, { status: 401, error: 'InvalidCredentials' });
      expect(wrong.body.teams).toBeUndefined();
      expectError(await signIn({ password, teamId: west.id }), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn({ password, teamId: 'North' }), { status: 400, error: 'InvalidParameter', parameter: 'teamId' });
      expectError(await http(t().url, 'POST', '/api/session', { json: { email: `${'a'.repeat(300)}@example.test`, password } }), {
        status: 400,
        error: 'InvalidParameter',
        parameter: 'email',
      });
    });
  },
  {},
  { now: () => clock },
);

forEachDialect(
  'sessions: a Secure cookie and the public origin when the public URL is https',
  (t) => {
    it('adds Secure to the cookie, and takes the public URL’s origin as the server’s own', async () => {
      const { cookie, setCookie } = await signedInWithCookie(t());
      expect(setCookie.split('; ')).toContain('Secure');
      const create = (origin: string) =>
        http(t().url, 'POST', '/v1/apps.create', { headers: { cookie, origin, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Behind TLS' }) });
      expectError(await create(t().url), { status: 403, error: 'CrossSiteRequest', description: /only pages of https:\/\/chat\.example\.test may/ });
      expect((await create('https://chat.example.test')).status).toBe(200);
    });
  },
  { publicUrl: 'https://chat.example.test/aviary' },
);

forEachDialect(
  'sessions: rate limits of the client API and the developer methods, sign-in limits without a trusted proxy',
  (t) => {
    it('limits a person’s client and developer calls like /v1, per route and per recipient, with X-RateLimit-* and Retry-After', async () => {
      clock += 60_000;
      const team = await t().f.team();
      const [alice, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(async () => sessionFor(t(), await t().f.person(team.id))));
      const first = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'one' });
      expect(first.status).toBe(200);
      expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2']);
      // Per recipient: a second message to Bob at once is refused, and costs nothing of the route's bucket.
      const toBobAgain = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'two' });
      expectError(toBobAgain, { status: 429, error: 'TooManyRequests', description: /one recipient/ });
      expect(toBobAgain.headers.get('retry-after')).toBe('1');
      expect((await alice.call('chat.sendFromComposer', { to: carol.user.id, text: 'three' })).status).toBe(200);
      expect((await alice.call('chat.sendFromComposer', { to: dave.user.id, text: 'four' })).status).toBe(200);
      const limited = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'five' });
      expectError(limited, { status: 429, error: 'TooManyRequests', description: /chat\.sendFromComposer is limited/ });
      expect(limited.body.retryAfter).toBe(1);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(await messagesIn(t(), bob, alice.user.id)).toHaveLength(1);
      // Another person, and another route of the same person, have their own buckets.
      expect((await bob.call('chat.sendFromComposer', { to: alice.user.id, text: 'hi' })).status).toBe(200);
      expect((await alice.call('chat.listConversations')).status).toBe(200);
      clock += 1_000;
      expect((await alice.call('chat.sendFromComposer', { to: carol.user.id, text: 'later' })).status).toBe(200);

      // The developer methods too: listing one's apps is the read class (burst 4 here).
      for (let i = 0; i < 4; i++) expect((await alice.call('apps.listDeveloped')).status).toBe(200);
      expectError(await alice.call('apps.listDeveloped'), { status: 429, error: 'TooManyRequests', description: /apps\.listDeveloped is limited/ });
    });

    it('counts failed sign-ins by the connection’s address, whatever X-Forwarded-For says, when no proxy is trusted', async () => {
      clock += 60 * 60_000;
      const user = await t().f.person((await t().f.team()).id, { password });
      const signIn = (pass: string, forwardedFor: string) =>
        http(t().url, 'POST', '/api/session', { json: { email: user.email, password: pass }, headers: { 'x-forwarded-for': forwardedFor } });
      for (let i = 0; i < 2; i++) expectError(await signIn('guess', `203.0.113.${i}`), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn(password, '198.51.100.7'), { status: 429, error: 'TooManyRequests' });
    });
  },
  {
    rateLimits: {
      message: { rate: 1, burst: 3 },
      messagePerRecipient: { rate: 1, burst: 1 },
      read: { rate: 1, burst: 4 },
      signInFailures: { rate: 1 / 60, burst: 2 },
    },
  },
  { now: () => clock },
);

forEachDialect(
  'sessions: sign-in limits behind a trusted proxy',
  (t) => {
    it('takes the client address from X-Forwarded-For, so an attacker’s failures do not lock the person out from their own address', async () => {
      clock += 60 * 60_000;
      const user = await t().f.person((await t().f.team()).id, { password });
      const signIn = (pass: string, forwardedFor: string) =>
        http(t().url, 'POST', '/api/session', { json: { email: user.email, password: pass }, headers: { 'x-forwarded-for': forwardedFor } });
      for (let i = 0; i < 2; i++) expectError(await signIn(`guess ${i}`, '203.0.113.9'), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn(password, '203.0.113.9'), { status: 429, error: 'TooManyRequests', description: /for this email from this address/ });
      // Through a second trusted proxy, and with a made-up hop to the left: still the attacker's address.
      expectError(await signIn(password, '203.0.113.9, 10.1.2.3'), { status: 429, error: 'TooManyRequests' });
      expectError(await signIn(password, '198.51.100.7, 203.0.113.9'), { status: 429, error: 'TooManyRequests' });
      // The person, from their own address, signs in.
      expect((await signIn(password, '198.51.100.7')).status).toBe(200);
      expect((await signIn(password, '::ffff:198.51.100.8')).status).toBe(200);
    });
  },
  { trustProxy: ['127.0.0.1', '10.0.0.0/8'], rateLimits: { signInFailures: { rate: 1 / 60, burst: 2 } } },
  { now: () => clock },
);
