import { streamCloseCodes } from '@aviary/protocol';
import { afterEach, expect, it } from 'vitest';
import { deactivateOwnAccount } from '../../src/core/commands/deactivateAccount.js';
import { hashPassword } from '../../src/core/passwords.js';
import { expectError, http, sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { closeStreams, openStream } from '../stream/harness.js';

const PASSWORD = 'correct horse battery staple';
const deactivate = (t: TestServer, sessionToken: string, password: string) =>
  http(t.url, 'POST', '/v1/users.deactivateAccount', { json: { password }, headers: { authorization: `Bearer ${sessionToken}` } });

forEachDialect('users.deactivateAccount', (t) => {
  afterEach(closeStreams);

  it('ends the person’s sessions, tokens and streams at once and keeps their messages; recorded', async () => {
    const { team, people } = await teamWithApp(t().testStore.store.db, 1);
    const [person] = people;
    await t().testStore.store.db.updateTable('users').set({ password_hash: null }).where('id', '=', person.id).execute();
    const pat = await t().f.person(team.id, { password: PASSWORD });
    const session = await sessionFor(t(), pat);
    const { token } = await t().f.install((await t().f.app(team.id, pat.id)).id, pat.id);
    const sent = await t().client(token).chat.sendMessage({ to: person.id, text: 'kept after I leave' });
    const stream = await openStream(t(), session);

    expectError(await deactivate(t(), session.sessionToken, 'not my password'), { status: 400, error: 'InvalidParameter', parameter: 'password' });
    const done = await deactivate(t(), session.sessionToken, PASSWORD);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await stream.closed).code).toBe(streamCloseCodes.signedOut);
    expectError(await http(t().url, 'POST', '/v1/users.getInfo', { json: {}, headers: { authorization: `Bearer ${session.sessionToken}` } }), { status: 401, error: 'NotSignedIn' });
    expectError(await t().call('users.getInfo', { json: { token } }), { status: 403, error: 'InvalidToken' });
    const kept = await t().testStore.store.db.selectFrom('messages').select('uid').where('uid', '=', sent.uid).executeTakeFirst();
    expect(kept).toBeDefined();
    const audit = await t().testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('target_id', '=', pat.id).where('action', '=', 'user.deactivated').execute();
    expect(audit).toEqual([{ action: 'user.deactivated', actor_user_id: pat.id, details: JSON.stringify({ by: 'self' }) }]);
  });

  it('refuses the team’s last admin, and lets an admin go while another stays', async () => {
    const team = await t().f.team();
    const first = await t().f.person(team.id, { role: 'admin', password: PASSWORD });
    const firstSession = await sessionFor(t(), first);
    expectError(await deactivate(t(), firstSession.sessionToken, PASSWORD), { status: 403, error: 'PermissionDenied', description: /last admin/ });
    await t().f.person(team.id, { role: 'admin' });
    expect((await deactivate(t(), firstSession.sessionToken, PASSWORD)).status).toBe(200);
  });

  it('reads the role and the password again as it deactivates: a promotion or a reset since the call was checked counts', async () => {
    const team = await t().f.team();
    const admin = await t().f.person(team.id, { role: 'admin', password: PASSWORD });
    const pat = await t().f.person(team.id, { password: PASSWORD });
    const db = t().testStore.store.db;
    const ctx = t().server.ctx;
    const stillDeactivated = async () => (await db.selectFrom('users').select('deactivated_at').where('id', '=', pat.id).executeTakeFirstOrThrow()).deactivated_at;
    // Pat's row as the call was authenticated with it; since, Pat was made an admin and the admin stepped down.
    await db.updateTable('users').set({ role: 'admin' }).where('id', '=', pat.id).execute();
    await db.updateTable('users').set({ role: 'user' }).where('id', '=', admin.id).execute();
    await expect(deactivateOwnAccount(ctx, { person: pat, address: null }, {})).rejects.toMatchObject({ code: 'PermissionDenied', message: expect.stringMatching(/last admin/) });
    expect(await stillDeactivated()).toBeNull();
    // The password reset since: nothing changes either.
    await db.updateTable('users').set({ role: 'user' }).where('id', '=', pat.id).execute();
    await db.updateTable('users').set({ password_hash: await hashPassword('the owner’s reset passphrase') }).where('id', '=', pat.id).execute();
    await expect(deactivateOwnAccount(ctx, { person: pat, address: null }, {})).rejects.toMatchObject({ code: 'InvalidParameter', context: { parameter: 'password' } });
    expect(await stillDeactivated()).toBeNull();
  });
});
