import { maxLivePersonalTokens, methodsByName } from '@aviary/protocol';
import { afterEach, expect, it } from 'vitest';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { createPersonalToken } from '../../src/core/commands/personalTokens.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, type StreamClient } from '../stream/harness.js';
import { expectError, http, sessionFor, type SignedIn } from './harness.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * personalTokens.create, list and revoke, and a personal token acting as its person on /v1. The sweep
 * that would also close streams is an hour away, so a stream that closes within a second was closed by
 * the credentials notice. The server's clock is the test's, so expiry is a step of it.
 */
afterEach(closeStreams);

const DAY_MS = 24 * 60 * 60 * 1000;
let clock = Date.UTC(2026, 5, 1, 9, 0);

async function closesWithinASecond(stream: StreamClient): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the stream was still open a second later')), 1_000)));
  try {
    return await Promise.race([stream.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

forEachDialect(
  'personal tokens',
  (t) => {
    const withToken = (token: string) => ({
      call: (method: string, json: unknown = {}) => http(t().url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${token}` } }),
    });

    async function annWithToken(params: Record<string, unknown> = { name: 'backup script', expiresInDays: 30 }) {
      const team = await t().f.team();
      const ann = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ann' }));
      const created = await ann.call('personalTokens.create', params);
      expect(created.status).toBe(200);
      return { team, ann, token: created.body.token as string, personalToken: created.body.personalToken, script: withToken(created.body.token) };
    }

    it('acts as the person on /v1, shows the token once, lists it without it, and records its making and revoking', async () => {
      const { ann, token, personalToken, script } = await annWithToken();
      expect(token).toMatch(/^as_p_[A-Za-z0-9_-]{43}$/);
      expect(personalToken).toEqual({ id: expect.any(String), name: 'backup script', createdAt: clock, expiresAt: clock + 30 * DAY_MS, lastUsedAt: null, expired: false });

      const annStream = await openStream(t(), ann);
      expect((await script.call('users.getInfo')).body).toMatchObject({ id: ann.user.id });
      expect((await script.call('chat.sendFromComposer', { to: ann.user.id, text: 'from my script' })).status).toBe(200);
      const frame = await annStream.waitFor(messageWithText('from my script'));
      expect(frame).toMatchObject({ message: { from: ann.user.id } });

      const listed = (await ann.call('personalTokens.list')).body.personalTokens;
      expect(listed).toEqual([{ ...personalToken, lastUsedAt: clock }]);
      expect(JSON.stringify(listed)).not.toContain(token);
      const stored = await t().testStore.store.db.selectFrom('personal_tokens').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(token);

      expect((await ann.call('personalTokens.revoke', { tokenId: personalToken.id })).body).toEqual({});
      expectError(await script.call('users.getInfo'), { status: 403, error: 'InvalidToken', description: /revoked/ });
      expect((await ann.call('personalTokens.list')).body.personalTokens).toEqual([]);
      const audit = await t().testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'target_id']).where('target_kind', '=', 'personalToken').orderBy('id').execute();
      expect(audit).toEqual([
        { action: 'personalToken.created', actor_user_id: ann.user.id, target_id: personalToken.id },
        { action: 'personalToken.revoked', actor_user_id: ann.user.id, target_id: personalToken.id },
      ]);
    });

    it('closes a stream opened with the token within a second of revoking it, directly or through a ticket; the session’s stays', async () => {
      const { ann, personalToken, token, script } = await annWithToken({ name: 'stream reader' });
      const direct = await openStream(t(), undefined, { headers: { authorization: `Bearer ${token}` } });
      const { ticket } = (await script.call('stream.createTicket')).body;
      const ticketed = await openStream(t(), undefined, { ticket });
      const sessions = await openStream(t(), ann);
      await ann.call('personalTokens.revoke', { tokenId: personalToken.id });
      expect(await closesWithinASecond(direct)).toMatchObject({ code: 1008 });
      expect(await closesWithinASecond(ticketed)).toMatchObject({ code: 1008 });
      expect(sessions.socket.readyState).toBe(sessions.socket.OPEN);
    });

    it('refuses an expired token saying when it expired; one without expiry lasts', async () => {
      const { script } = await annWithToken({ name: 'month', expiresInDays: 30 });
      const forever = await annWithToken({ name: 'forever' });
      expect(forever.personalToken.expiresAt).toBeNull();
      const start = clock;
      clock += 30 * DAY_MS - 1;
      expect((await script.call('users.getInfo')).status).toBe(200);
      clock += 1;
      expectError(await script.call('users.getInfo'), { status: 403, error: 'InvalidToken', description: /expired at 2026-07-01T09:00:00\.000Z/ });
      expect((await forever.script.call('users.getInfo')).status).toBe(200);
      clock = start;
    });

    it('cannot manage tokens, sessions, the password or sign-in, nor travel as the token parameter', async () => {
      const { ann, personalToken, token, script } = await annWithToken();
      const sessionOnly = [...methodsByName.values()].filter((method) => method.sessionOnly).map((method) => method.name);
      expect(sessionOnly).toEqual(expect.arrayContaining(['personalTokens.create', 'personalTokens.list', 'personalTokens.revoke', 'sessions.revoke', 'users.changePassword', 'team.updateSignInSettings']));
      for (const method of sessionOnly) {
        expectError(await script.call(method, { name: 'x', tokenId: personalToken.id }), { status: 403, error: 'PermissionDenied', description: /manages how you sign in/ });
      }
      expectError(await http(t().url, 'POST', '/v1/users.getInfo', { json: { token } }), { status: 403, error: 'InvalidToken', description: /Authorization: Bearer/ });
      expect((await ann.call('personalTokens.list')).body.personalTokens).toHaveLength(1);
    });

    it('refuses another person’s token id and names nobody’s token; refuses a blank name and an expiry not offered', async () => {
      const { personalToken, team } = await annWithToken();
      const ben: SignedIn = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ben' }));
      expectError(await ben.call('personalTokens.revoke', { tokenId: personalToken.id }), { status: 400, error: 'InvalidParameter', parameter: 'tokenId' });
      expectError(await ben.call('personalTokens.create', { name: ' \u200b ' }), { status: 400, error: 'InvalidParameter', parameter: 'name' });
      expectError(await ben.call('personalTokens.create', { name: 'weekly', expiresInDays: 7 }), { status: 400, error: 'InvalidParameter', parameter: 'expiresInDays' });
    });

    it('keeps at most 50 working tokens a person: the next is refused until one is revoked or has expired', async () => {
      const { ann, personalToken } = await annWithToken({ name: 'first', expiresInDays: 30 });
      const ctx = { ...t().server.ctx, now: () => clock };
      for (let index = 1; index < maxLivePersonalTokens; index++) await createPersonalToken(ctx, { person: ann.user, address: null }, { name: `script ${index}` });
      const refused = await ann.call('personalTokens.create', { name: 'one too many' });
      expectError(refused, { status: 400, error: 'InvalidParameter', parameter: 'name', description: /50 personal tokens that work, the most a person keeps; revoke one/ });
      expect((await ann.call('personalTokens.revoke', { tokenId: personalToken.id })).status).toBe(200);
      expect((await ann.call('personalTokens.create', { name: 'in its place', expiresInDays: 30 })).status).toBe(200);
      expectError(await ann.call('personalTokens.create', { name: 'one too many' }), { status: 400, error: 'InvalidParameter', parameter: 'name' });
      // The one made to last 30 days stops counting when it expires.
      const start = clock;
      clock += 31 * DAY_MS;
      expect((await ann.call('personalTokens.create', { name: 'after it expired' })).status).toBe(200);
      clock = start;
    });

    it('ends with the person’s deactivation, and stays ended when they are reactivated', async () => {
      const { ann, script } = await annWithToken();
      await deactivatePerson(t().server.ctx, cliActor, { userId: ann.user.id });
      expectError(await script.call('users.getInfo'), { status: 403, error: 'InvalidToken' });
      await t().testStore.store.db.updateTable('users').set({ deactivated_at: null }).where('id', '=', ann.user.id).execute();
      expectError(await script.call('users.getInfo'), { status: 403, error: 'InvalidToken', description: /revoked/ });
    });
  },
  { stream: { sessionCheckMs: 3_600_000 } },
  { now: () => clock },
);
