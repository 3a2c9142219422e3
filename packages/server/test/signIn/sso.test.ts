import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSignInSettings, type SignInChange } from '../../src/core/signIn/settings.js';
import { forEachDialect } from '../helpers/server.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidcProvider.js';
import { SsoBrowser } from './ssoFlow.js';

const accounts = {
  ada: { email: 'ada@example.test', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' },
  newbie: { email: 'newbie@example.test', email_verified: true, given_name: 'Nell', family_name: 'Newbie' },
  eve: { email: 'eve@elsewhere.test', email_verified: true, given_name: 'Eve', family_name: 'Outsider' },
  unverified: { email: 'ada@example.test', email_verified: false },
};

forEachDialect('single sign-on through a real OpenID Connect provider', (t) => {
  let idp: TestOidcProvider;
  beforeAll(async () => {
    idp = await startOidcProvider();
    idp.configure({ redirectUri: `${t().url}/api/sso/callback`, accounts });
  });
  afterAll(() => idp.close());

  /** A team signing in through the provider, with Ada's account in it; `change` adds to the provider's settings. */
  async function teamWithSso(change: Partial<NonNullable<SignInChange['provider']>> = {}, passwordEnabled = true) {
    const { db, keyring } = t().testStore.store;
    const team = await t().f.team();
    const ada = await t().f.person(team.id, { email: 'ada@example.test', password: 'correct horse battery staple' });
    const provider = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: ['example.test'], createAccounts: false, ...change };
    await updateSignInSettings({ db, keyring, envProvider: undefined }, team.id, { provider, passwordEnabled }, Date.now());
    return { team, ada };
  }

  const auditOf = (teamId: string) =>
    t().testStore.store.db.selectFrom('audit_log').select(['action', 'actor_user_id', 'target_id', 'details']).where('team_id', '=', teamId).orderBy('id').execute();

  const sessionCookieOf = (browser: SsoBrowser) => browser.cookie(new URL(t().url).origin, 'aviary_session');

  it('signs a person in by their verified email, links the provider’s subject, and records it', async () => {
    const { team, ada } = await teamWithSso();
    const browser = new SsoBrowser();
    const home = await browser.finish(await browser.toCallback(t().url, team.id, 'ada'));
    expect(home.pathname + home.search).toBe('/');
    const session = await fetch(`${t().url}/api/session`, { headers: { cookie: `aviary_session=${sessionCookieOf(browser)}` } }).then((r) => r.json());
    expect(session.user.id).toBe(ada.id);
    const link = await t().testStore.store.db.selectFrom('sso_identities').selectAll().where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    expect(link).toMatchObject({ team_id: team.id, issuer: idp.issuer, subject: 'ada' });
    expect(await auditOf(team.id)).toContainEqual(expect.objectContaining({ action: 'session.signIn', actor_user_id: ada.id, details: JSON.stringify({ method: 'sso', issuer: idp.issuer }) }));
    expect(browser.cookie(new URL(t().url).origin, 'aviary_sso')).toBeUndefined();
  });

  it('follows the linked subject afterwards, and never links a subject by an unverified email', async () => {
    const { team, ada } = await teamWithSso();
    const first = new SsoBrowser();
    await first.finish(await first.toCallback(t().url, team.id, 'ada'));
    await t().testStore.store.db.updateTable('users').set({ email: 'ada.lovelace@example.test' }).where('id', '=', ada.id).execute();
    const again = new SsoBrowser();
    expect((await again.finish(await again.toCallback(t().url, team.id, 'ada'))).pathname).toBe('/');
    const session = await fetch(`${t().url}/api/session`, { headers: { cookie: `aviary_session=${sessionCookieOf(again)}` } }).then((r) => r.json());
    expect(session.user.id).toBe(ada.id);
    const impostor = new SsoBrowser();
    expect((await impostor.finish(await impostor.toCallback(t().url, team.id, 'unverified'))).search).toBe('?sso=unverifiedEmail');
  });

  it('refuses an unverified email, a domain not allowed, and a person without an account when accounts are not created', async () => {
    const { team } = await teamWithSso();
    for (const [login, refusal] of [['unverified', 'unverifiedEmail'], ['eve', 'domain'], ['newbie', 'noAccount']]) {
      const browser = new SsoBrowser();
      const landing = await browser.finish(await browser.toCallback(t().url, team.id, login));
      expect(landing.pathname + landing.search, login).toBe(`/signin?sso=${refusal}`);
      expect(sessionCookieOf(browser)).toBeUndefined();
    }
    const failures = (await auditOf(team.id)).filter((row) => row.action === 'session.signInFailed').map((row) => JSON.parse(row.details).refusal);
    expect(failures).toEqual(['unverifiedEmail', 'domain', 'noAccount']);
  });

  it('creates the account on first sign-in when the team allows it, with the provider’s names', async () => {
    const { team } = await teamWithSso({ createAccounts: true });
    const browser = new SsoBrowser();
    expect((await browser.finish(await browser.toCallback(t().url, team.id, 'newbie'))).pathname).toBe('/');
    const made = await t().testStore.store.db.selectFrom('users').selectAll().where('team_id', '=', team.id).where('email', '=', 'newbie@example.test').executeTakeFirstOrThrow();
    expect(made).toMatchObject({ first_name: 'Nell', last_name: 'Newbie', role: 'user', password_hash: null });
  });

  it('refuses a replayed callback, one brought to another browser, and a tampered one', async () => {
    const { team } = await teamWithSso();
    const browser = new SsoBrowser();
    const callback = await browser.toCallback(t().url, team.id, 'ada');
    expect((await browser.finish(callback)).pathname).toBe('/');
    expect((await new SsoBrowser().finish(callback)).search).toBe('?sso=expired');
    expect((await browser.finish(callback)).search).toBe('?sso=expired');

    const stolen = await new SsoBrowser().toCallback(t().url, team.id, 'ada');
    expect((await new SsoBrowser().finish(stolen)).search).toBe('?sso=otherBrowser');

    const tampered = new SsoBrowser();
    const url = await tampered.toCallback(t().url, team.id, 'ada');
    url.searchParams.set('code', `${url.searchParams.get('code')}x`);
    expect((await tampered.finish(url)).search).toBe('?sso=provider');
    const otherState = new SsoBrowser();
    const forged = await otherState.toCallback(t().url, team.id, 'ada');
    forged.searchParams.set('state', 'forged-state');
    expect((await otherState.finish(forged)).search).toBe('?sso=expired');
  });

  it('refuses a deactivated person', async () => {
    const { team, ada } = await teamWithSso();
    await t().testStore.store.db.updateTable('users').set({ deactivated_at: Date.now() }).where('id', '=', ada.id).execute();
    const browser = new SsoBrowser();
    expect((await browser.finish(await browser.toCallback(t().url, team.id, 'ada'))).search).toBe('?sso=deactivated');
  });

  it('names no team to strangers, and starts by work email: the team where it has an account, else the one taking its domain', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const teamA = await t().f.team(`Alpha ${tag}`);
    const teamB = await t().f.team(`Bravo ${tag}`);
    const { db, keyring } = t().testStore.store;
    for (const [team, domain] of [[teamA, `a-${tag}.test`], [teamB, `b-${tag}.test`]] as const) {
      const provider = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: [domain], createAccounts: true };
      await updateSignInSettings({ db, keyring, envProvider: undefined }, team.id, { provider, passwordEnabled: true }, Date.now());
    }
    const methods = await fetch(`${t().url}/api/session/methods`).then((r) => r.json());
    expect(methods).toEqual({ password: true, sso: 'email' });

    const start = async (email: string) => {
      await db.deleteFrom('sso_attempts').where('team_id', 'in', [teamA.id, teamB.id]).execute();
      const response = await new SsoBrowser().get(`${t().url}/api/sso/start?email=${encodeURIComponent(email)}`);
      const location = new URL(response.headers.get('location')!, t().url);
      if (location.origin === new URL(t().url).origin) return location.pathname + location.search;
      const attempts = await db.selectFrom('sso_attempts').select('team_id').where('team_id', 'in', [teamA.id, teamB.id]).execute();
      expect(attempts).toHaveLength(1);
      return attempts[0].team_id;
    };
    expect(await start(`someone@B-${tag}.test`)).toBe(teamB.id);
    expect(await start(`nobody@unknown-${tag}.test`)).toBe('/signin?sso=notConfigured');
    expect(await start('not an email')).toBe('/signin?sso=notConfigured');
    await t().f.person(teamA.id, { email: `solo-${tag}@b-${tag}.test` });
    expect(await start(`solo-${tag}@b-${tag}.test`)).toBe(teamA.id);
    await t().f.person(teamA.id, { email: `dual-${tag}@c.test` });
    await t().f.person(teamB.id, { email: `dual-${tag}@c.test` });
    expect(await start(`dual-${tag}@c.test`)).toBe('/signin?sso=severalTeams');
  });

  describe('password sign-in switched off', () => {
    it('answers PasswordSignInOff to the right password only, and the sign-in page offers the provider', async () => {
      const { team } = await teamWithSso({}, false);
      const signIn = (password: string) => fetch(`${t().url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t().url }, body: JSON.stringify({ email: 'ada@example.test', password, teamId: team.id }) });
      const right = await signIn('correct horse battery staple');
      expect(right.status).toBe(403);
      expect((await right.json()).error).toBe('PasswordSignInOff');
      expect((await (await signIn('wrong password here')).json()).error).toBe('InvalidCredentials');
      const methods = await fetch(`${t().url}/api/session/methods`).then((r) => r.json());
      expect(methods.sso).not.toBe('off');
      expect((await new SsoBrowser().get(`${t().url}/api/sso/start?team=${encodeURIComponent(team.id)}`)).headers.get('location')).toMatch(new RegExp(`^${idp.issuer}`));
    });
  });
});
