import { afterEach, expect, it } from 'vitest';
import { resetPassword } from '../../src/core/commands/accountLinks.js';
import { changePassword, revokeSessions } from '../../src/core/commands/accounts.js';
import { issueAccountLinkIn } from '../../src/core/commands/internal/accountLinkRows.js';
import { hashToken } from '../../src/store/ids.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, type StreamClient } from '../stream/harness.js';
import { expectError, http, sessionFor, signIn, type SignedIn } from './harness.js';

/**
 * users.changePassword, sessions.list and sessions.revoke: a person's own account, from their session.
 * The sweep that would also close streams is an hour away here, so a stream that closes within a second
 * was closed by the credentials notice.
 */
afterEach(closeStreams);

const PASSWORD = 'a long and private passphrase';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';

/** Within a second, or the test fails: what "at once" means here. */
async function closesWithinASecond(stream: StreamClient): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream was still open a second later')), 1_000);
  });
  try {
    return await Promise.race([stream.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function signInWith(t: TestServer, email: string, password: string, userAgent?: string) {
  return http(t.url, 'POST', '/api/session', { json: { email, password }, headers: userAgent ? { 'user-agent': userAgent } : {} });
}

forEachDialect(
  'accounts: changing one’s password and ending one’s sessions',
  (t) => {
    async function personWithSessions(count: number) {
      const team = await t().f.team();
      const user = await t().f.person(team.id, { firstName: 'Ann', lastName: 'Account', password: PASSWORD });
      const sessions: SignedIn[] = [];
      for (let i = 0; i < count; i++) sessions.push(await signIn(t(), user, PASSWORD));
      return { team, user, sessions };
    }

    it('changes the password: the other sessions answer NotSignedIn and their streams close within a second; this one stays', async () => {
      const { user, sessions } = await personWithSessions(3);
      const [here, ...others] = sessions;
      const bystander = await sessionFor(t(), await t().f.person(user.team_id, { firstName: 'Ben' }));
      const [hereStream, otherStream, bystanderStream] = [await openStream(t(), here), await openStream(t(), others[0]), await openStream(t(), bystander)];

      const changed = await here.call('users.changePassword', { currentPassword: PASSWORD, newPassword: 'a new passphrase of mine' });
      expect(changed.body).toEqual({ endedSessions: 2 });
      expect(await closesWithinASecond(otherStream)).toMatchObject({ code: 1008 });
      for (const other of others) expectError(await other.call('users.getInfo'), { status: 401, error: 'NotSignedIn' });

      expect((await here.call('users.getInfo')).status).toBe(200);
      expect((await here.call('chat.sendFromComposer', { to: user.id, text: 'still here' })).status).toBe(200);
      await hereStream.waitFor(messageWithText('still here'));
      expect((await bystander.call('chat.sendFromComposer', { to: bystander.user.id, text: 'ben too' })).status).toBe(200);
      await bystanderStream.waitFor(messageWithText('ben too'));

      expectError(await signInWith(t(), user.email!, PASSWORD), { status: 401, error: 'InvalidCredentials' });
      expect((await signInWith(t(), user.email!, 'a new passphrase of mine')).status).toBe(200);
    });

    it('refuses a wrong current password naming currentPassword, counts it as a failed sign-in, and changes nothing', async () => {
      const { user, sessions } = await personWithSessions(2);
      const [here, other] = sessions;
      const wrong = () => here.call('users.changePassword', { currentPassword: 'not my password at all', newPassword: 'a new passphrase of mine' });
      expectError(await wrong(), { error: 'InvalidParameter', parameter: 'currentPassword', description: /current password/ });
      expectError(await wrong(), { error: 'InvalidParameter', parameter: 'currentPassword' });
      // The suite allows 3 failures per email and address: the third guess uses them up, sign-in included.
      expectError(await wrong(), { error: 'InvalidParameter', parameter: 'currentPassword' });
      expectError(await wrong(), { status: 429, error: 'TooManyRequests' });
      expectError(await signInWith(t(), user.email!, PASSWORD), { status: 429, error: 'TooManyRequests' });
      expect((await other.call('users.getInfo')).status).toBe(200);
    });

    it('changes nothing when the password was reset, or the session signed out, after the current password was checked', async () => {
      const { user, sessions } = await personWithSessions(2);
      const [here, other] = sessions;
      // The row the call was authenticated with and its password checked against, before the reset.
      const checked = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      const ctx = t().server.ctx;
      const hereHash = hashToken(here.sessionToken);
      const [linkToken] = await t().testStore.store.db.transaction().execute(async (tx) => [await issueAccountLinkIn(tx, user.id, 'reset', Date.now())]);
      await resetPassword(ctx, { address: null }, { linkToken: linkToken!, newPassword: 'the owner’s reset passphrase' });
      await expect(changePassword(ctx, { person: checked, sessionHash: hereHash, address: null }, { newPassword: 'a passphrase of the thief' })).rejects.toMatchObject({
        code: 'InvalidParameter',
        context: { parameter: 'currentPassword' },
        message: expect.stringMatching(/changed or reset meanwhile/),
      });
      expect((await signInWith(t(), user.email!, 'the owner’s reset passphrase')).status).toBe(200);
      expectError(await signInWith(t(), user.email!, 'a passphrase of the thief'), { status: 401, error: 'InvalidCredentials' });

      // Signed out everywhere (the password unchanged): the session that was checked changes nothing either.
      const again = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      const fresh = await signIn(t(), again, 'the owner’s reset passphrase');
      await revokeSessions(ctx, { person: again, sessionHash: 'another device', address: null }, { all: true, exceptCurrent: false });
      await expect(changePassword(ctx, { person: again, sessionHash: hashToken(fresh.sessionToken), address: null }, { newPassword: 'a passphrase of the thief' })).rejects.toMatchObject({ code: 'NotSignedIn' });
      expect((await signInWith(t(), user.email!, 'the owner’s reset passphrase')).status).toBe(200);
      expectError(await other.call('users.getInfo'), { status: 401, error: 'NotSignedIn' });
    });

    it('keeps one password rule: long enough, not a common leaked one, named newPassword', async () => {
      const { sessions } = await personWithSessions(1);
      const [here] = sessions;
      const change = (newPassword: unknown) => here.call('users.changePassword', { currentPassword: PASSWORD, newPassword });
      expectError(await change('short'), { error: 'InvalidParameter', parameter: 'newPassword', description: /at least 8 characters/ });
      expectError(await change('Password123'), { error: 'InvalidParameter', parameter: 'newPassword', description: /common/ });
      expectError(await change('qwertyuiop'), { error: 'InvalidParameter', parameter: 'newPassword' });
      expectError(await change('x'.repeat(2_000)), { error: 'InvalidParameter', parameter: 'newPassword' });
      expectError(await here.call('users.changePassword', { newPassword: 'a new passphrase of mine' }), { error: 'MissingParameter', parameter: 'currentPassword' });
      // A new person gets the same rule.
      const team = await t().f.team();
      await expect(t().f.person(team.id, { password: 'iloveyou1' })).rejects.toThrow(/common/);
      expect((await here.call('users.getInfo')).status).toBe(200);
    });

    it('lists the person’s sessions with device, address and times, marks this one, and never shows a token', async () => {
      const team = await t().f.team();
      const user = await t().f.person(team.id, { password: PASSWORD });
      const firefox = await signInWith(t(), user.email!, PASSWORD, FIREFOX);
      const script = await signInWith(t(), user.email!, PASSWORD, 'curl/8.4.0');
      const listed = await http(t().url, 'POST', '/v1/sessions.list', { json: {}, headers: { authorization: `Bearer ${firefox.body.sessionToken}` } });
      expect(listed.status).toBe(200);
      const { sessions } = listed.body as { sessions: Array<Record<string, unknown>> };
      expect(sessions).toHaveLength(2);
      expect(sessions).toContainEqual(expect.objectContaining({ device: 'Firefox on Linux', address: '127.0.0.1', current: true }));
      expect(sessions).toContainEqual(expect.objectContaining({ device: 'curl/8.4.0', current: false }));
      for (const session of sessions) {
        expect(session.createdAt).toEqual(expect.any(Number));
        expect(session.lastSeenAt).toEqual(expect.any(Number));
        expect(session.id).toMatch(/^[0-9a-f]{16}$/);
      }
      expect(JSON.stringify(listed.body)).not.toContain(firefox.body.sessionToken);
      expect(JSON.stringify(listed.body)).not.toContain(script.body.sessionToken);
    });

    it('signs out one session by its id, or all but this one, or all; their streams close within a second', async () => {
      const { sessions } = await personWithSessions(4);
      const [here, first, second, third] = sessions;
      const streams = [await openStream(t(), first), await openStream(t(), second)];
      const list = async () => (await here.call('sessions.list')).body.sessions as Array<{ id: string; current: boolean }>;
      const before = await list();
      const firstId = (await first.call('sessions.list')).body.sessions.find((s: { current: boolean }) => s.current).id;

      expect((await here.call('sessions.revoke', { sessionId: firstId })).body).toEqual({ revoked: 1 });
      expect(await closesWithinASecond(streams[0])).toMatchObject({ code: 1008 });
      expectError(await first.call('users.getInfo'), { status: 401, error: 'NotSignedIn' });
      expect(await list()).toHaveLength(before.length - 1);
      // Already gone: refused like any id that is not one's own.
      expectError(await here.call('sessions.revoke', { sessionId: firstId }), { error: 'InvalidParameter', parameter: 'sessionId' });

      expect((await here.call('sessions.revoke', { all: true, exceptCurrent: true })).body).toEqual({ revoked: 2 });
      expect(await closesWithinASecond(streams[1])).toMatchObject({ code: 1008 });
      for (const gone of [second, third]) expectError(await gone.call('users.getInfo'), { status: 401, error: 'NotSignedIn' });
      expect(await list()).toEqual([expect.objectContaining({ current: true })]);

      expect((await here.call('sessions.revoke', { all: true })).body).toEqual({ revoked: 1 });
      expectError(await here.call('sessions.list'), { status: 401, error: 'NotSignedIn' });
    });

    it('a member cannot revoke another person’s session, even knowing its id', async () => {
      const team = await t().f.team();
      const victim = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Vic' }));
      const admin = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Ada', role: 'admin' }));
      const mallory = await sessionFor(t(), await t().f.person(team.id, { firstName: 'Mal' }));
      const victimStream = await openStream(t(), victim);
      const [victimSession] = (await victim.call('sessions.list')).body.sessions;
      for (const caller of [mallory, admin]) {
        expectError(await caller.call('sessions.revoke', { sessionId: victimSession.id }), { error: 'InvalidParameter', parameter: 'sessionId' });
        expect((await caller.call('sessions.list')).body.sessions.map((s: { id: string }) => s.id)).not.toContain(victimSession.id);
      }
      expect((await mallory.call('sessions.revoke', { all: true, exceptCurrent: true })).body).toEqual({ revoked: 0 });
      expect((await victim.call('users.getInfo')).status).toBe(200);
      expect((await victim.call('chat.sendFromComposer', { to: victim.user.id, text: 'still signed in' })).status).toBe(200);
      await victimStream.waitFor(messageWithText('still signed in'));
    });

    it('refuses unclear revocations naming the parameter', async () => {
      const team = await t().f.team();
      const ann = await sessionFor(t(), await t().f.person(team.id));
      expectError(await ann.call('sessions.revoke', {}), { error: 'MissingParameter', parameter: 'sessionId' });
      expectError(await ann.call('sessions.revoke', { sessionId: 'abc', all: true }), { error: 'InvalidParameter', parameter: 'all' });
      expectError(await ann.call('sessions.revoke', { all: false }), { error: 'InvalidParameter', parameter: 'all' });
      expectError(await ann.call('sessions.revoke', { sessionId: 'abc', exceptCurrent: true }), { error: 'InvalidParameter', parameter: 'exceptCurrent' });
      expectError(await ann.call('sessions.revoke', { sessionId: 'x'.repeat(10_000) }), { error: 'InvalidParameter', parameter: 'sessionId' });
      expect((await ann.call('users.getInfo')).status).toBe(200);
    });
  },
  { stream: { sessionCheckMs: 3_600_000 }, rateLimits: { signInFailures: { rate: 1 / 3600, burst: 3 } } },
);

let clock = Date.UTC(2026, 5, 1, 9, 0);

forEachDialect(
  'accounts: a session’s last use',
  (t) => {
    it('is written at sign-in, then at most once a minute as the session calls methods', async () => {
      const team = await t().f.team();
      const user = await t().f.person(team.id, { password: PASSWORD });
      const signedIn = await signInWith(t(), user.email!, PASSWORD, FIREFOX);
      const headers = { authorization: `Bearer ${signedIn.body.sessionToken}` };
      const lastSeen = async () => (await http(t().url, 'POST', '/v1/sessions.list', { json: {}, headers })).body.sessions[0].lastSeenAt;
      const signedInAt = clock;
      expect(await lastSeen()).toBe(signedInAt);
      clock += 30_000;
      expect(await lastSeen()).toBe(signedInAt);
      clock += 31_000;
      expect(await lastSeen()).toBe(clock);
      const seenAt = clock;
      clock += 59_000;
      expect(await lastSeen()).toBe(seenAt);
    });
  },
  {},
  { now: () => clock },
);
