import { expect, it } from 'vitest';
import { resetPassword } from '../../src/core/commands/accountLinks.js';
import { changePassword } from '../../src/core/commands/accounts.js';
import { issueAccountLinkIn } from '../../src/core/commands/internal/accountLinkRows.js';
import { verifyPassword } from '../../src/core/passwords.js';
import { createPersonalToken } from '../../src/core/commands/personalTokens.js';
import { openSsoSession, signIn } from '../../src/core/commands/sessions.js';
import { deactivateOwnAccount } from '../../src/core/commands/deactivateAccount.js';
import { hashToken } from '../../src/store/ids.js';
import { sessionFor } from '../client/harness.js';
import { onPostgres } from '../helpers/pgLocks.js';

const PASSWORD = 'correct horse battery staple';

/**
 * PostgreSQL: a credential made from a check of the account while the account changes. A sign-in checked
 * the old password, then wrote its session after a password change (or reset, or a deactivation) had
 * ended every other session: the session made with the old password survived it, a session the person
 * was told was ended. Likewise a personal token made while its person was deactivated outlived the
 * deactivation's revocation, and a single sign-on's session its deactivation. Now the credential's change holds the account's row as it was checked, and
 * the account's change waits for it and then ends it too, or goes first and the credential is refused.
 * The test holds the credential's change at its audit record, after its row was written (a lock of the
 * audit log from a session of its own: helpers/pgLocks.ts), and runs the account's change there.
 */
onPostgres('a credential made while its account changes', (suite) => {
  const t = () => suite().t;
  const holdAtAudit = { statement: 'lock table audit_log in share mode', params: [], waitsAt: /^insert into "audit_log"/ };

  it('a password sign-in under way when the password changes leaves no session made with the old password', async () => {
    const team = await t().f.team();
    const pat = await t().f.person(team.id, { password: PASSWORD });
    const own = await sessionFor(t(), pat);
    let signedIn: Awaited<ReturnType<typeof signIn>> | undefined;
    const outcome = await suite().holder.interleave(
      holdAtAudit,
      async () => (signedIn = await signIn(t().server.ctx, { userAgent: 'test' }, { email: pat.email!, password: PASSWORD })),
      () => changePassword(t().server.ctx, { person: pat, sessionHash: hashToken(own.sessionToken), address: null }, { newPassword: 'an entirely new passphrase' }),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const sessions = await t().testStore.store.db.selectFrom('sessions').select('token_hash').where('user_id', '=', pat.id).execute();
    expect(sessions).toEqual([{ token_hash: hashToken(own.sessionToken) }]);
    // The sign-in's own answer: its session, now ended, or refused.
    if (signedIn?.outcome === 'signedIn') expect((await t().call('users.getInfo', { headers: { authorization: `Bearer ${signedIn.sessionToken}` } })).status).toBe(401);
  });

  it('a password change whose current password was checked before a reset under way commits changes nothing', async () => {
    const team = await t().f.team();
    const pat = await t().f.person(team.id, { password: PASSWORD });
    const own = await sessionFor(t(), pat);
    const [linkToken] = await t().testStore.store.db.transaction().execute(async (tx) => [await issueAccountLinkIn(tx, pat.id, 'reset', Date.now())]);
    const outcome = await suite().holder.interleave(
      holdAtAudit,
      () => resetPassword(t().server.ctx, { address: null }, { linkToken: linkToken!, newPassword: 'the owner’s reset passphrase' }),
      () => changePassword(t().server.ctx, { person: pat, sessionHash: hashToken(own.sessionToken), address: null }, { newPassword: 'a passphrase of the thief' }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toMatchObject({ code: 'InvalidParameter', context: { parameter: 'currentPassword' } });
    const { password_hash } = await t().testStore.store.db.selectFrom('users').select('password_hash').where('id', '=', pat.id).executeTakeFirstOrThrow();
    expect(await verifyPassword('the owner’s reset passphrase', password_hash!)).toBe(true);
  });

  it('a personal token made while its person is deactivated does not outlive the deactivation', async () => {
    const team = await t().f.team();
    const pat = await t().f.person(team.id, { password: PASSWORD });
    await t().f.person(team.id, { role: 'admin' });
    const actor = { person: pat, address: null };
    const outcome = await suite().holder.interleave(
      holdAtAudit,
      () => createPersonalToken(t().server.ctx, actor, { name: 'CI' }),
      () => deactivateOwnAccount(t().server.ctx, actor, {}),
    );
    expect(outcome.second).toBe('done');
    const live = await t().testStore.store.db.selectFrom('personal_tokens').select('id').where('user_id', '=', pat.id).where('revoked_at', 'is', null).execute();
    expect(live).toEqual([]);
  });

  it('a single sign-on under way when the person is deactivated leaves no session', async () => {
    const team = await t().f.team();
    const pat = await t().f.person(team.id, { password: PASSWORD });
    const identity = { issuer: 'https://idp.example', subject: 'pat', linked: false };
    let token: string | undefined = 'unset';
    const outcome = await suite().holder.interleave(
      holdAtAudit,
      async () => (token = await openSsoSession(t().server.ctx, { userAgent: 'test' }, { person: pat, identity, accountCreated: false })),
      () => deactivateOwnAccount(t().server.ctx, { person: pat, address: null }, {}),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    expect(await t().testStore.store.db.selectFrom('sessions').select('token_hash').where('user_id', '=', pat.id).execute()).toEqual([]);
    // Deactivated before or after: no session from this sign-in stands.
    if (token !== undefined) expect((await t().call('users.getInfo', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});
