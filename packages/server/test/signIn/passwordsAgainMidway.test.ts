import { expect, it } from 'vitest';
import { cliActor } from '../../src/core/audit/record.js';
import { allowPasswordsAgain, changeSignInSettings } from '../../src/core/commands/signInSettings.js';
import { onPostgres } from '../helpers/pgLocks.js';

/**
 * PostgreSQL: the operator's break-glass (`aviary team sign-in --password on`) while an admin changes the
 * team's provider. The admin's change read the settings before the break-glass committed and wrote them
 * back whole after it, with passwords off again, though the CLI had said they were on. Now both take
 * turns on the team's row, and the admin's change reads the settings after the break-glass. The test
 * holds the break-glass at its audit record (a lock of the audit log from a session of its own:
 * helpers/pgLocks.ts), after its write, and makes the admin's change there.
 */
onPostgres('passwords allowed again while an admin changes the provider', (suite) => {
  const t = () => suite().t;

  it('keeps passwords on', async () => {
    const team = await t().f.team();
    const admin = await t().f.person(team.id, { role: 'admin' });
    const ctx = { ...t().server.ctx, store: t().testStore.store, config: { oidc: undefined } };
    const provider = { issuer: 'https://idp.example', clientId: 'aviary', clientSecret: 'a client secret', allowedDomains: ['example.com'], createAccounts: false };
    await changeSignInSettings(ctx, cliActor, { teamId: team.id, provider, passwordEnabled: false });

    const outcome = await suite().holder.interleave(
      { statement: 'lock table audit_log in share mode', params: [], waitsAt: /^insert into "audit_log"/ },
      () => allowPasswordsAgain(t().server.ctx, cliActor, { teamId: team.id }),
      () => changeSignInSettings(ctx, { userId: admin.id, appId: null, address: null }, { teamId: team.id, provider: { ...provider, allowedDomains: ['example.org'] } }),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const row = await t().testStore.store.db.selectFrom('team_sign_in').select(['password_enabled', 'oidc_allowed_domains']).where('team_id', '=', team.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_enabled: 1, oidc_allowed_domains: '["example.org"]' });
  });
});
