import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { dialects } from '../helpers/dialects.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidcProvider.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { SsoBrowser } from './ssoFlow.js';

describe('the provider of the environment (AVIARY_OIDC_*)', () => {
  it('is read whole, or refused naming the variable', () => {
    const env = { AVIARY_OIDC_ISSUER: 'https://login.example.com/realms/acme', AVIARY_OIDC_CLIENT_ID: 'aviary', AVIARY_OIDC_CLIENT_SECRET: 's3cret' };
    expect(loadConfig({}, { ...env, AVIARY_OIDC_ALLOWED_DOMAINS: 'Example.com, acme.test', AVIARY_OIDC_CREATE_ACCOUNTS: 'yes' }).oidc).toEqual({
      issuer: env.AVIARY_OIDC_ISSUER, clientId: 'aviary', clientSecret: 's3cret', allowedDomains: ['example.com', 'acme.test'], createAccounts: true,
    });
    expect(loadConfig({}, {}).oidc).toBeUndefined();
    const refusal = (extra: Record<string, string>) => {
      try {
        loadConfig({}, { ...env, ...extra });
      } catch (error) {
        return error instanceof ConfigError ? error.setting : error;
      }
      return undefined;
    };
    expect(refusal({ AVIARY_OIDC_ISSUER: 'http://login.example.com' })).toBe('AVIARY_OIDC_ISSUER');
    expect(refusal({ AVIARY_OIDC_CLIENT_SECRET: '' })).toBe('AVIARY_OIDC_CLIENT_SECRET');
    expect(refusal({ AVIARY_OIDC_ALLOWED_DOMAINS: 'not a domain!' })).toBe('AVIARY_OIDC_ALLOWED_DOMAINS');
    expect(refusal({ AVIARY_OIDC_CREATE_ACCOUNTS: 'maybe' })).toBe('AVIARY_OIDC_CREATE_ACCOUNTS');
  });

  for (const dialect of dialects) {
    describe(`signs every team without its own provider in through it [${dialect}]`, () => {
      let idp: TestOidcProvider;
      let t: TestServer;
      beforeAll(async () => {
        idp = await startOidcProvider();
        const oidc = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: [], createAccounts: true };
        t = await startTestServer(dialect, { oidc });
        idp.configure({ redirectUri: `${t.url}/api/sso/callback`, accounts: { kim: { email: 'kim@anywhere.test', email_verified: true, given_name: 'Kim', family_name: 'Lee' } } });
      });
      afterAll(async () => {
        await stopTestServer(t);
        await idp.close();
      });

      it('creates the account as the environment allows', async () => {
        const team = await t.f.team();
        const methods = await fetch(`${t.url}/api/session/methods`).then((response) => response.json());
        expect(methods.sso).not.toBe('off');
        expect(JSON.stringify(methods)).not.toContain(team.id);
        const browser = new SsoBrowser();
        expect((await browser.finish(await browser.toCallback(t.url, team.id, 'kim'))).pathname).toBe('/');
        const made = await t.testStore.store.db.selectFrom('users').select(['first_name', 'email']).where('team_id', '=', team.id).executeTakeFirstOrThrow();
        expect(made).toEqual({ first_name: 'Kim', email: 'kim@anywhere.test' });
      });
    });
  }
});
