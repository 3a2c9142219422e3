import { expect, it } from 'vitest';
import { deactivateFromConsole } from '../../src/core/commands/administerPeople.js';
import { ApiError } from '../../src/errors.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: two admins deactivate each other at once (a third admin stays). Each change had passed its
 * checks before the other committed, so both succeeded: two admins gone, one of them by someone already
 * deactivated. Now the console's changes take turns on the team's row and the second finds its admin no
 * longer active: refused. The test holds the first at its audit record, after its change (a lock of the
 * audit log from a session of its own: helpers/pgLocks.ts), and runs the second there.
 */
onPostgres('two admins deactivate each other at once', (suite) => {
  const t = () => suite().t;

  it('deactivates one, and refuses the other as no longer an admin', async () => {
    const team = await t().f.team();
    const [ana, ben] = [await t().f.person(team.id, { role: 'admin' }), await t().f.person(team.id, { role: 'admin' })];
    await t().f.person(team.id, { role: 'admin' });
    const ctx = t().server.ctx;
    const outcome = await suite().holder.interleave(
      { statement: 'lock table audit_log in share mode', params: [], waitsAt: /^insert into "audit_log"/ },
      () => deactivateFromConsole(ctx, { admin: ana, address: null }, { userId: ben.id }),
      () => deactivateFromConsole(ctx, { admin: ben, address: null }, { userId: ana.id }),
    );
    expect(outcome.first).toBe('done');
    expect(outcome.second).toBeInstanceOf(ApiError);
    expect(outcome.second).toMatchObject({ code: 'PermissionDenied', message: 'You are no longer an active admin of this team.' });
    const active = await t().testStore.store.db.selectFrom('users').select('id').where('id', 'in', [ana.id, ben.id]).where('deactivated_at', 'is', null).execute();
    expect(active).toEqual([{ id: ana.id }]);
  });
});
