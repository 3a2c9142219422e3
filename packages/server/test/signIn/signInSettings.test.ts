import { describe, expect, it } from 'vitest';
import { expectError, http, sessionFor } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

const call = (t: TestServer, sessionToken: string, method: string, json: unknown = {}) =>
  http(t.url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${sessionToken}` } });

const provider = { issuer: 'https://login.example.com/realms/acme', clientId: 'aviary', clientSecret: 'the-client-secret', allowedDomains: ['Example.com', '@acme.test'], createAccounts: true };

forEachDialect('team sign-in settings', (t) => {
  async function team() {
    const made = await t().f.team();
    const admin = await sessionFor(t(), await t().f.person(made.id, { role: 'admin' }));
    const member = await sessionFor(t(), await t().f.person(made.id));
    return { team: made, admin, member };
  }

  it('lets an admin set a provider, seals its secret, never answers it, and records the change', async () => {
    const { team: made, admin } = await team();
    const set = await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.settings).toEqual({
      passwordEnabled: true,
      source: 'team',
      provider: { issuer: provider.issuer, clientId: 'aviary', allowedDomains: ['example.com', 'acme.test'], createAccounts: true },
      callbackUrl: `${t().url}/api/sso/callback`,
    });
    expect(JSON.stringify(set.body)).not.toContain('the-client-secret');
    const row = await t().testStore.store.db.selectFrom('team_sign_in').selectAll().where('team_id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.oidc_client_secret_sealed).not.toContain('the-client-secret');
    expect(t().testStore.store.keyring.open(row.oidc_client_secret_sealed!)).toBe('the-client-secret');

    // Passwords go off only once the admin has signed in through the provider: one that does not work would lock everyone out.
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', { passwordEnabled: false }), {
      status: 400,
      error: 'InvalidParameter',
      parameter: 'passwordEnabled',
      description: /Sign in once through https:\/\/login\.example\.com\/realms\/acme yourself/,
    });
    await t().testStore.store.db.insertInto('sso_identities').values({ team_id: made.id, issuer: provider.issuer, subject: 'admin-at-idp', user_id: admin.user.id, created_at: Date.now() }).execute();
    const off = await call(t(), admin.sessionToken, 'team.updateSignInSettings', { passwordEnabled: false });
    expect(off.body.settings.passwordEnabled).toBe(false);
    expect((await call(t(), admin.sessionToken, 'team.getSignInSettings')).body.settings.provider.issuer).toBe(provider.issuer);
    const audit = await t().testStore.store.db.selectFrom('audit_log').select(['action', 'details']).where('team_id', '=', made.id).where('action', '=', 'team.signInSettingsChanged').execute();
    expect(audit).toHaveLength(2);
    expect(audit.map((entry) => entry.details).join()).not.toContain('the-client-secret');

    // Passwords back on, the team's provider is removed with null, or with "" (a form's emptied field).
    expect((await call(t(), admin.sessionToken, 'team.updateSignInSettings', { passwordEnabled: true })).status).toBe(200);
    const removed = await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider: null });
    expect(removed.body.settings, JSON.stringify(removed.body)).toMatchObject({ source: 'none', provider: null });
    expect((await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider })).body.settings.source).toBe('team');
    const emptied = await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider: '', passwordEnabled: true });
    expect(emptied.body.settings, JSON.stringify(emptied.body)).toMatchObject({ source: 'none', provider: null });
  });

  it('refuses members, passwords off without a provider, and a provider that could not be one', async () => {
    const { admin, member } = await team();
    expectError(await call(t(), member.sessionToken, 'team.updateSignInSettings', { provider }), { status: 403, error: 'PermissionDenied' });
    expectError(await call(t(), member.sessionToken, 'team.getSignInSettings'), { status: 403, error: 'PermissionDenied' });
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', { passwordEnabled: false }), { status: 400, error: 'InvalidParameter', parameter: 'passwordEnabled' });
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider: { ...provider, issuer: 'http://login.example.com' } }), {
      status: 400,
      error: 'InvalidParameter',
      parameter: 'provider.issuer',
    });
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider: { ...provider, allowedDomains: ['not a domain'] } }), {
      status: 400,
      error: 'InvalidParameter',
      parameter: 'provider.allowedDomains',
    });
    const { clientSecret: _secret, ...withoutSecret } = provider;
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', { provider: withoutSecret }), { status: 400, error: 'InvalidParameter', parameter: 'provider.clientSecret' });
    expectError(await call(t(), admin.sessionToken, 'team.updateSignInSettings', {}), { status: 400, error: 'MissingParameter' });
  });

  describe('the sign-in page’s choices', () => {
    it('offers the password form while any team keeps passwords', async () => {
      const methods = await fetch(`${t().url}/api/session/methods`).then((response) => response.json());
      expect(methods.password).toBe(true);
    });
  });
});
