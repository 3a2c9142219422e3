import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSsoSession } from '../../src/core/commands/sessions.js';
import { updateSignInSettings } from '../../src/core/signIn/settings.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidcProvider.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { SsoBrowser } from './ssoFlow.js';

/**
 * PostgreSQL: one person signs in through the team's provider in two tabs at once, the first time. Both
 * sign-ins write the same rows, the second after it had looked for them: the provider's name kept for the
 * person (its insert answered 500), or the account made from the provider's name (the second was sent
 * back to the sign-in page, told the provider had failed). Now both sign in, to the one account. The test
 * holds both at that insert with an uncommitted row of its own, rolled back once both wait
 * (helpers/pgLocks.ts).
 */
onPostgres('one person signing in through the provider twice at once', (suite) => {
  let idp: TestOidcProvider;
  beforeAll(async () => {
    idp = await startOidcProvider();
    idp.configure({
      redirectUri: `${suite().t.url}/api/sso/callback`,
      accounts: { newbie: { email: 'newbie@example.test', email_verified: true, given_name: 'Nell', family_name: 'Newbie' } },
    });
  });
  afterAll(() => idp?.close());

  it('keeps the provider’s name once and opens both sessions', async () => {
    const { t, holder } = suite();
    const team = await t.f.team();
    const person = await t.f.person(team.id);
    const identity = { issuer: 'https://id.example.test', subject: 'sub-42', linked: false };
    const signIn = () => openSsoSession(t.server.ctx, { userAgent: 'test' }, { person, identity, accountCreated: false });

    const outcome = await holder.interleave(
      {
        statement: 'insert into sso_identities (team_id, issuer, subject, user_id, created_at) values ($1, $2, $3, $4, 0)',
        params: [team.id, identity.issuer, identity.subject, person.id],
        waitsAt: /^insert into "sso_identities"/,
        release: 'rollback',
      },
      signIn,
      signIn,
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    const db = t.testStore.store.db;
    expect(await db.selectFrom('sso_identities').select('user_id').where('team_id', '=', team.id).execute()).toEqual([{ user_id: person.id }]);
    expect(await db.selectFrom('sessions').select('user_id').where('user_id', '=', person.id).execute()).toHaveLength(2);
  });

  it('makes one account from the provider’s name and signs both tabs in to it', async () => {
    const { t, holder } = suite();
    const { db, keyring } = t.testStore.store;
    const team = await t.f.team();
    const provider = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: ['example.test'], createAccounts: true };
    await updateSignInSettings({ db, keyring, envProvider: undefined }, team.id, { provider, passwordEnabled: true }, Date.now());
    const [first, second] = [new SsoBrowser(), new SsoBrowser()];
    const callbacks = [await first.toCallback(t.url, team.id, 'newbie'), await second.toCallback(t.url, team.id, 'newbie')];
    const landed: string[] = [];
    const finish = (browser: SsoBrowser, callback: URL) => async () => {
      const next = await browser.finish(callback);
      landed.push(next.pathname + next.search);
    };

    const outcome = await holder.interleave(
      {
        statement: `insert into users (id, team_id, email, first_name, last_name, role, timezone, created_at) values ('u:held', $1, 'newbie@example.test', 'Held', 'Back', 'user', 'UTC', 0)`,
        params: [team.id],
        waitsAt: /^insert into "users"/,
        release: 'rollback',
      },
      finish(first, callbacks[0]!),
      finish(second, callbacks[1]!),
    );
    expect(outcome).toEqual({ first: 'done', second: 'done' });
    expect(landed).toEqual(['/', '/']);
    const accounts = await db.selectFrom('users').select('id').where('team_id', '=', team.id).where('email', '=', 'newbie@example.test').execute();
    expect(accounts).toHaveLength(1);
    expect(await db.selectFrom('sso_identities').select('user_id').where('team_id', '=', team.id).execute()).toEqual([{ user_id: accounts[0]!.id }]);
  });
});
