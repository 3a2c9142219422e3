import { describe, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { SESSION_COOKIE } from '../../src/api/session/sessionToken.js';
import { expectError, http, sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

/** A person's /v1 call with their session token as Bearer, or with other headers (the cookie). */
function v1(t: TestServer, method: string, json: unknown, headers: Record<string, string>) {
  return http(t.url, 'POST', `/v1/${method}`, { json, headers });
}

const bearer = (sessionToken: string) => ({ authorization: `Bearer ${sessionToken}` });

/** Alice and Bob of one team, signed in, both in a channel "general"; Alice has installed an app (her token). */
async function cast(t: TestServer) {
  const { team, people } = await teamWithApp(t.testStore.store.db, 2);
  const [alice, bob] = people;
  const { channel } = await createChannel(t.server.ctx, { user: alice, appId: null }, { name: 'general', members: [bob.id] });
  return { team, channel, alice, bob, aliceSession: await sessionFor(t, alice), bobSession: await sessionFor(t, bob) };
}

forEachDialect('/v1 methods called with a person’s session', (t) => {
  describe('who calls', () => {
    it('runs an app’s method for a person as themselves, through no app', async () => {
      const { channel, alice, aliceSession, bobSession } = await cast(t());
      const sent = await v1(t(), 'chat.sendMessage', { to: channel.id, text: 'hello from the web' }, bearer(aliceSession.sessionToken));
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const row = await t().testStore.store.db.selectFrom('messages').select(['from_user_id', 'app_id']).where('uid', '=', sent.body.uid).executeTakeFirstOrThrow();
      expect(row).toEqual({ from_user_id: alice.id, app_id: null });

      const fetched = await v1(t(), 'chat.fetchMessages', { chat: channel.id }, bearer(bobSession.sessionToken));
      expect(fetched.body.map((message: { uid: string }) => message.uid)).toContain(sent.body.uid);
      expect((await v1(t(), 'users.getInfo', {}, bearer(aliceSession.sessionToken))).body.id).toBe(alice.id);
      const channels = await v1(t(), 'channels.list', {}, bearer(aliceSession.sessionToken));
      expect(channels.body.map((listed: { id: string }) => listed.id)).toEqual([channel.id]);
    });

    it('answers NotSignedIn for a session token nobody holds, and InvalidToken for any other unknown token, as before', async () => {
      expectError(await v1(t(), 'users.getInfo', {}, bearer(`as_s_${'A'.repeat(43)}`)), { status: 401, error: 'NotSignedIn' });
      expectError(await v1(t(), 'users.getInfo', {}, bearer(`au_${'A'.repeat(43)}`)), { status: 403, error: 'InvalidToken' });
      expectError(await v1(t(), 'users.getInfo', {}, {}), { status: 400, error: 'MissingParameter', parameter: 'token' });
    });
  });

  describe('the session cookie', () => {
    it('acts only in a POST of JSON from the server’s own pages', async () => {
      const { channel, aliceSession } = await cast(t());
      const cookie = `${SESSION_COOKIE}=${aliceSession.sessionToken}`;
      const ownPage = { cookie, origin: new URL(t().url).origin };
      expect((await v1(t(), 'chat.sendMessage', { to: channel.id, text: 'from our page' }, ownPage)).status).toBe(200);

      expectError(await v1(t(), 'chat.sendMessage', { to: channel.id, text: 'forged' }, { cookie, origin: 'https://evil.example' }), {
        status: 403,
        error: 'CrossSiteRequest',
      });
      const viaGet = await http(t().url, 'GET', `/v1/chat.sendMessage?${new URLSearchParams({ to: channel.id, text: 'a link' })}`, { headers: { cookie } });
      expectError(viaGet, { status: 403, error: 'CrossSiteRequest', description: /POST and a JSON body/ });
      const form = await http(t().url, 'POST', '/v1/chat.sendMessage', {
        body: new URLSearchParams({ to: channel.id, text: 'a form' }).toString(),
        headers: { ...ownPage, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectError(form, { status: 400, error: 'InvalidRequestData' });
      const texts = await v1(t(), 'chat.fetchMessages', { chat: channel.id }, bearer(aliceSession.sessionToken));
      expect(texts.body.map((message: { text: string }) => message.text)).toEqual(['from our page']);
    });

    it('answers NotSignedIn for a cookie of a signed-out session', async () => {
      const { aliceSession } = await cast(t());
      expect((await http(t().url, 'DELETE', '/api/session', { headers: bearer(aliceSession.sessionToken) })).status).toBe(200);
      const origin = new URL(t().url).origin;
      expectError(await v1(t(), 'users.getInfo', {}, { cookie: `${SESSION_COOKIE}=${aliceSession.sessionToken}`, origin }), { status: 401, error: 'NotSignedIn' });
    });
  });

  describe('params', () => {
    it('refuses the parameters only an app has, naming them; an app still passes them', async () => {
      const { channel, alice, aliceSession } = await cast(t());
      for (const extra of [{ sendAs: { name: 'Someone else' } }, { onBehalfOf: alice.id }, { visibleTo: [alice.id] }, { notification: 'n' }]) {
        const refused = await v1(t(), 'chat.sendMessage', { to: channel.id, text: 'hi', ...extra }, bearer(aliceSession.sessionToken));
        expectError(refused, { error: 'InvalidParameter', parameter: Object.keys(extra)[0], description: /is not a field of chat\.sendMessage for a person’s session/ });
      }
      const asApp = await t().call('chat.sendMessage', { json: { token: alice.token, to: channel.id, text: 'hi', sendAs: { name: 'Weather' } } });
      expect(asApp.status, JSON.stringify(asApp.body)).toBe(200);
    });
  });

  describe('chat.updateMessage', () => {
    it('edits a message the person sent themselves, and no other', async () => {
      const { channel, alice, aliceSession, bobSession } = await cast(t());
      const own = (await v1(t(), 'chat.sendMessage', { to: channel.id, text: 'typo' }, bearer(aliceSession.sessionToken))).body.uid;
      const edited = await v1(t(), 'chat.updateMessage', { messageUid: own, text: 'fixed' }, bearer(aliceSession.sessionToken));
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.uid).toBe(own);

      expectError(await v1(t(), 'chat.updateMessage', { messageUid: own, text: 'mine now' }, bearer(bobSession.sessionToken)), {
        status: 403,
        error: 'PermissionDenied',
        parameter: 'messageUid',
        description: /a person edits only their own messages/,
      });
      const throughApp = (await t().call('chat.sendMessage', { json: { token: alice.token, to: channel.id, text: 'via the app' } })).body.uid;
      expectError(await v1(t(), 'chat.updateMessage', { messageUid: throughApp, text: 'x' }, bearer(aliceSession.sessionToken)), {
        status: 403,
        error: 'PermissionDenied',
        description: /sent through an app; only that app’s token edits it/,
      });
    });
  });

  describe('rate limits', () => {
    it('gives a person a budget per method that all their sessions share, apart from their apps’ tokens', async () => {
      const { alice, aliceSession } = await cast(t());
      const second = await sessionFor(t(), alice);
      for (const session of [aliceSession, second, aliceSession]) expect((await v1(t(), 'users.getInfo', {}, bearer(session.sessionToken))).status).toBe(200);
      const limited = await v1(t(), 'users.getInfo', {}, bearer(second.sessionToken));
      expectError(limited, { status: 429, error: 'TooManyRequests', description: /^users\.getInfo is limited to .* per person\./ });
      expect(limited.headers.get('retry-after')).not.toBeNull();
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      // Another method has its own bucket, and so has the person's token of an app.
      expect((await v1(t(), 'channels.list', {}, bearer(second.sessionToken))).status).toBe(200);
      expect((await t().call('users.getInfo', { query: { token: alice.token } })).status).toBe(200);
    });
  });
}, { rateLimits: { read: { rate: 1e-9, burst: 3 } } });
