import { expect, it } from 'vitest';
import { resetPassword } from '../../src/core/commands/accountLinks.js';
import { issueAccountLinkIn } from '../../src/core/commands/internal/accountLinkRows.js';
import { verifyPassword } from '../../src/core/passwords.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: two password-reset links of one account followed at once (two mails, two tabs). Each reset
 * held its own link's row and waited for the account's, and the first then waited for the other link's
 * row to mark it used: a deadlock, one of them answered 500. Now both take turns on the account's row
 * first: the first sets its password and ends the other link, which is refused as used. The test holds
 * the account's row from a session of its own (helpers/pgLocks.ts) until both have reached it.
 */
onPostgres('two reset links of one account followed at once', (suite) => {
  const t = () => suite().t;

  it('sets the first password; the second link is refused as already used, not a deadlock', async () => {
    const team = await t().f.team();
    const ann = await t().f.person(team.id, { email: 'ann@example.test' });
    const now = Date.now();
    const [one, two] = await t().testStore.store.db.transaction().execute(async (tx) => [await issueAccountLinkIn(tx, ann.id, 'reset', now), await issueAccountLinkIn(tx, ann.id, 'reset', now)]);
    const reset = (linkToken: string, newPassword: string) => () => resetPassword(t().server.ctx, { address: null }, { linkToken, newPassword });

    const outcome = await suite().holder.interleave(
      { statement: 'select 1 from users where id = $1 for update', params: [ann.id], waitsAt: /"users"/ },
      reset(one, 'the first new passphrase'),
      reset(two, 'the second new passphrase'),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect((outcome.second as ApiError).code).toBe('AccountLinkUnusable');
    expect((outcome.second as ApiError).message).toMatch(/already used/);
    const { password_hash } = await t().testStore.store.db.selectFrom('users').select('password_hash').where('id', '=', ann.id).executeTakeFirstOrThrow();
    expect(await verifyPassword('the first new passphrase', password_hash!)).toBe(true);
  });
});
