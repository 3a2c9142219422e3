import { expect, it } from 'vitest';
import { acceptInvitation, createInvitation } from '../../src/core/commands/invitations.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { tokenOf } from './harness.js';

/**
 * PostgreSQL: the same email signs up twice at once with a link (the form sent twice). Both look for an
 * account with the email before either has committed one; the second then met the unique index and
 * answered 500. It is now refused as any taken email is. The test holds the first sign-up at its insert
 * with an uncommitted account of the same email in a session of its own (rolled back once the second
 * sign-up waits on the first: helpers/pgLocks.ts).
 */
onPostgres('one email signing up twice at once', (suite) => {
  const t = () => suite().t;
  const holder = () => suite().holder;

  it('makes one account and refuses the other as a taken email, using the link once', async () => {
    const team = await t().f.team('Kestrel');
    const admin = await t().f.person(team.id, { role: 'admin' });
    const { invitation, url } = await createInvitation(t().server.ctx, { person: admin, address: null }, { maxUses: 5 });
    const signUp = () =>
      acceptInvitation(t().server.ctx, { address: null }, { inviteToken: tokenOf(url!), email: 'twice@example.test', firstName: 'Tess', lastName: 'Twice', password: 'a long and private passphrase' });

    const outcome = await holder().interleave(
      {
        statement: `insert into users (id, team_id, email, first_name, last_name, role, timezone, created_at) values ('u:held', $1, 'twice@example.test', 'Held', 'Back', 'user', 'UTC', 0)`,
        params: [team.id],
        waitsAt: /^insert into "users"/,
        release: 'rollback',
      },
      signUp,
      signUp,
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect(outcome.second).toMatchObject({ code: 'InvalidParameter', context: { parameter: 'email' }, message: expect.stringMatching(/already has an account in Kestrel/) });
    const db = t().testStore.store.db;
    expect(await db.selectFrom('users').select('first_name').where('email', '=', 'twice@example.test').execute()).toEqual([{ first_name: 'Tess' }]);
    expect(await db.selectFrom('invitations').select('uses').where('id', '=', invitation.id).executeTakeFirstOrThrow()).toEqual({ uses: 1 });
  });
});
