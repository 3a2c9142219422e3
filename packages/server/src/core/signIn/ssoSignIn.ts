import { randomBytes } from 'node:crypto';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { Dispatcher } from 'undici';
import { hashToken } from '../../store/ids.js';
import { recordAudit } from '../audit/record.js';
import { openSsoSession } from '../commands/sessions.js';
import { createPerson } from '../commands/people.js';
import { storeContext } from '../context.js';
import { authorizationUrl, newAttemptSecrets, providerConfiguration, redeemCallback, type ProviderIdentity } from './oidcProvider.js';
import { signInSettings, type SignInStore } from './settings.js';
import { isEmailTaken } from '../../store/rows/users.js';
import { cutText } from '../textCut.js';

/** How long a person has at the provider before the sign-in must start again. */
export const ATTEMPT_LIFETIME_MS = 10 * 60 * 1000;

/**
 * Why a single sign-on was refused; each has a page the person can act on (docs/security.md, "Single
 * sign-on"). `expired`: the attempt is unknown, spent (a replayed callback) or too old; `otherBrowser`:
 * the callback came to a browser that did not start it; `provider`: the provider refused or its answer
 * did not check out (a tampered callback); `unverifiedEmail`, `domain`, `noAccount`, `deactivated`: the
 * person is not one who may sign in here.
 */
export type SsoRefusal = 'notConfigured' | 'expired' | 'otherBrowser' | 'provider' | 'unverifiedEmail' | 'domain' | 'noAccount' | 'deactivated';

export type SsoOutcome = { outcome: 'signedIn'; user: UsersTable; sessionToken: string; created: boolean } | { outcome: 'refused'; refusal: SsoRefusal };

export interface SsoContext extends SignInStore {
  db: Db;
  /** Reaches a team's own provider (one an admin typed in) under the internal-address policy. */
  guard: Dispatcher;
  now: number;
  clientAddress: string;
  userAgent?: string;
}

/**
 * Starts a sign-in at the team's provider: the URL to send the browser to, and the value the browser
 * keeps in a cookie, without which the callback is refused (the attempt is bound to this browser).
 */
export async function beginSsoSignIn(ctx: SsoContext, teamId: string, redirectUri: string): Promise<{ url: URL; browserValue: string } | { refusal: SsoRefusal }> {
  const { provider, source } = await signInSettings(ctx, teamId);
  if (!provider) return { refusal: 'notConfigured' };
  const configuration = await providerConfiguration(provider, source === 'team' ? ctx.guard : undefined);
  const secrets = newAttemptSecrets();
  const browserValue = randomBytes(32).toString('base64url');
  await ctx.db.transaction().execute(async (tx) => {
    // Spent attempts go with each new one, so they never pile up.
    await tx.deleteFrom('sso_attempts').where('expires_at', '<=', ctx.now).execute();
    await tx
      .insertInto('sso_attempts')
      .values({ state_hash: hashToken(secrets.state), team_id: teamId, browser_hash: hashToken(browserValue), nonce: secrets.nonce, code_verifier: secrets.codeVerifier, expires_at: ctx.now + ATTEMPT_LIFETIME_MS })
      .execute();
  });
  return { url: await authorizationUrl(configuration, redirectUri, secrets), browserValue };
}

/**
 * Finishes a sign-in from the provider's callback. The attempt its state names is spent first (the
 * delete decides, so a replayed callback finds nothing), then must belong to this browser, then the code
 * is redeemed with the attempt's PKCE verifier and the ID token checked (issuer, audience, nonce).
 */
export async function finishSsoSignIn(ctx: SsoContext, callbackUrl: URL, browserValue: string | undefined): Promise<SsoOutcome> {
  const state = callbackUrl.searchParams.get('state');
  if (!state || state.length > 256) return refused('expired');
  const attempt = await ctx.db.deleteFrom('sso_attempts').where('state_hash', '=', hashToken(state)).returningAll().executeTakeFirst();
  if (!attempt || attempt.expires_at <= ctx.now) return refused('expired');
  const fail = async (refusal: SsoRefusal, details: Record<string, unknown> = {}, userId: string | null = null): Promise<SsoOutcome> => {
    await recordAudit(ctx.db, {
      teamId: attempt.team_id,
      actor: { userId, address: ctx.clientAddress },
      at: ctx.now,
      action: 'session.signInFailed',
      target: userId ? { kind: 'user', id: userId } : { kind: 'team', id: attempt.team_id },
      details: { method: 'sso', refusal, ...details },
    });
    return refused(refusal);
  };
  if (browserValue === undefined || hashToken(browserValue) !== attempt.browser_hash) return fail('otherBrowser');
  const { provider, source } = await signInSettings(ctx, attempt.team_id);
  if (!provider) return fail('notConfigured');
  if (callbackUrl.searchParams.has('error')) return fail('provider', { error: callbackUrl.searchParams.get('error')?.slice(0, 100) });
  let identity: ProviderIdentity;
  try {
    identity = await redeemCallback(await providerConfiguration(provider, source === 'team' ? ctx.guard : undefined), callbackUrl, { state, nonce: attempt.nonce, codeVerifier: attempt.code_verifier });
  } catch (error) {
    return fail('provider', { error: error instanceof Error ? error.message.slice(0, 200) : 'unknown' });
  }
  const seen = { issuer: identity.issuer, email: identity.email };
  const linked = await linkedPerson(ctx.db, attempt.team_id, identity);
  if (!linked) {
    if (!identity.email || !identity.emailVerified) return fail('unverifiedEmail', seen);
  }
  const email = linked?.email ?? identity.email!;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (provider.allowedDomains.length > 0 && !provider.allowedDomains.includes(domain)) return fail('domain', seen, linked?.id ?? null);
  let person = linked ?? (await personByEmail(ctx.db, attempt.team_id, email));
  if (person?.deactivated_at != null) return fail('deactivated', seen, person.id);
  let created = false;
  if (!person) {
    if (!provider.createAccounts) return fail('noAccount', seen);
    try {
      person = await createPerson(storeContext(ctx.db, () => ctx.now), { userId: null, address: ctx.clientAddress }, { teamId: attempt.team_id, email, ...namesOf(identity, email) });
      created = true;
    } catch (error) {
      // Another sign-in of theirs (a second tab) made the account a moment ago: it is theirs.
      if (isEmailTaken(error)) person = await personByEmail(ctx.db, attempt.team_id, email);
      // Names the provider gave that no account may have (invisible, too long): refused, never a 500 to a browser.
      if (!person) return fail('provider', { ...seen, error: error instanceof Error ? error.message.slice(0, 200) : 'unknown' });
    }
  }
  const sessionToken = await openSsoSession(
    storeContext(ctx.db, () => ctx.now),
    { userAgent: ctx.userAgent, clientAddress: ctx.clientAddress },
    { person, identity: { issuer: identity.issuer, subject: identity.subject, linked: linked !== undefined }, accountCreated: created },
  );
  if (sessionToken === undefined) return fail('deactivated', seen, person.id);
  return { outcome: 'signedIn', user: person, sessionToken, created };
}

const refused = (refusal: SsoRefusal): SsoOutcome => ({ outcome: 'refused', refusal });

/** The person this provider's subject was linked to before, when still there. */
async function linkedPerson(db: Db, teamId: string, identity: ProviderIdentity): Promise<UsersTable | undefined> {
  return db
    .selectFrom('sso_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .selectAll('u')
    .where('i.team_id', '=', teamId)
    .where('i.issuer', '=', identity.issuer)
    .where('i.subject', '=', identity.subject)
    .executeTakeFirst();
}

/** The person (not a bot) of the team with this email, active or not. */
const personByEmail = (db: Db, teamId: string, email: string): Promise<UsersTable | undefined> =>
  db.selectFrom('users').selectAll().where('team_id', '=', teamId).where('email', '=', email).where('bot_app_id', 'is', null).executeTakeFirst();

/** A new account's names, from the provider's claims; the email's local part when it gives none that would do. */
function namesOf(identity: ProviderIdentity, email: string): { firstName: string; lastName: string } {
  const local = email.slice(0, email.lastIndexOf('@'));
  const [first, ...rest] = (identity.name ?? '').split(/\s+/);
  const firstName = identity.givenName ?? (first || local);
  const lastName = identity.familyName ?? (rest.join(' ') || firstName);
  return { firstName: cutText(firstName, 64), lastName: cutText(lastName, 64) };
}
