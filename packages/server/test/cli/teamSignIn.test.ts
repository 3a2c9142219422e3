import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli, runCliJson, tempDataDir } from './cli.js';

describe('aviary team sign-in: the break-glass of single sign-on', () => {
  const data = tempDataDir();
  const on = ['--data', data.dir];
  afterAll(() => data.remove());

  it('lets a team whose passwords were switched off sign in with them again, recorded in the audit log', async () => {
    const { id: teamId } = await runCliJson<{ id: string }>(['team', 'create', '--name', 'Locked Out', ...on]);
    let store = openStore({ dataDir: data.dir });
    await store.db
      .insertInto('team_sign_in')
      .values({ team_id: teamId, password_enabled: 0, oidc_issuer: 'https://login.example.com', oidc_client_id: 'aviary', oidc_client_secret_sealed: store.keyring.seal('s'), oidc_allowed_domains: '[]', oidc_create_accounts: 0, updated_at: 1 })
      .execute();
    await store.close();

    expect(await runCliJson(['team', 'sign-in', '--team', teamId, '--password', 'on', ...on])).toEqual({ id: teamId, passwordEnabled: true });
    store = openStore({ dataDir: data.dir });
    const row = await store.db.selectFrom('team_sign_in').selectAll().where('team_id', '=', teamId).executeTakeFirstOrThrow();
    const audit = await store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'details']).where('team_id', '=', teamId).execute();
    await store.close();
    expect(row).toMatchObject({ password_enabled: 1, oidc_issuer: 'https://login.example.com' });
    expect(audit).toEqual([{ action: 'team.signInSettingsChanged', actor_user_id: null, details: JSON.stringify({ passwordEnabled: true }) }]);

    const refused = await runCli(['team', 'sign-in', '--team', teamId, '--password', 'off', ...on]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/--password/);
  });
});
