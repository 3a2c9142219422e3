import type { UsersTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import type { CommandContext } from '../context.js';
import { hashToken, newSecret } from '../../store/ids.js';
import { holdStandingAccount, recordPersonSeen } from '../../store/rows/users.js';
import { runChange } from '../effects/effects.js';
import { verifyAgainstNoAccount, verifyPassword } from '../passwords.js';
import { byPerson, recordAudit } from '../audit/record.js';
import { teamsWithoutPasswords } from '../signIn/settings.js';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface SignInInput {
  email: string;
  password: string;
  /** The team to sign in to, for an email that has accounts in several teams. */
  teamId?: string | undefined;
}

/** Who signs in or opens a session: the User-Agent and client address, kept for the person's list of sessions (sessions.list) and the audit log. */
export interface Browser {
  userAgent?: string | undefined;
  clientAddress?: string | undefined;
}

/** How much of a User-Agent a session keeps. */
const MAX_USER_AGENT = 512;

export type SignInResult =
  | { outcome: 'signedIn'; sessionToken: string; user: UsersTable }
  /** The password opened accounts in several teams: the person picks one and signs in again with its id. */
  | { outcome: 'chooseTeam'; teams: Array<{ id: string; name: string }> }
  /** The password is right, but every team it opens an account in signs in through its provider only. */
  | { outcome: 'passwordOff' }
  /** `accounts`: the active accounts the password was checked against (the audit log records a failed sign-in for each). */
  | { outcome: 'wrongCredentials'; accounts: Array<Pick<UsersTable, 'id' | 'team_id'>> };

/**
 * Checks a person's email and password. One email may have an account in several teams, each with its
 * own password: every account of the email (or only the named team's) is checked, and only the accounts
 * the password opens count. Without an account to check, a password is still checked against a hash
 * nobody knows, so an unknown email costs what a wrong password costs.
 */
export async function signIn(ctx: CommandContext, browser: Browser, input: SignInInput): Promise<SignInResult> {
  const { db } = ctx;
  let query = db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', input.email.trim().toLowerCase())
    .where('deactivated_at', 'is', null)
    .where('password_hash', 'is not', null);
  if (input.teamId !== undefined) query = query.where('team_id', '=', input.teamId);
  const accounts = await query.orderBy('team_id').execute();
  if (accounts.length === 0) {
    await verifyAgainstNoAccount(input.password);
    return { outcome: 'wrongCredentials', accounts: [] };
  }
  let opened: UsersTable[] = [];
  for (const account of accounts) {
    if (await verifyPassword(input.password, account.password_hash!)) opened.push(account);
  }
  if (opened.length === 0) return { outcome: 'wrongCredentials', accounts: accounts.map(({ id, team_id }) => ({ id, team_id })) };
  // Told only once the password is right: a team that switched passwords off signs in through its provider.
  const passwordOff = await teamsWithoutPasswords(db, opened.map((account) => account.team_id));
  if (passwordOff.size > 0) {
    opened = opened.filter((account) => !passwordOff.has(account.team_id));
    if (opened.length === 0) return { outcome: 'passwordOff' };
  }
  if (opened.length > 1) {
    const teams = await db.selectFrom('teams').select(['id', 'name']).where('id', 'in', opened.map((user) => user.team_id)).orderBy('name').orderBy('id').execute();
    return { outcome: 'chooseTeam', teams };
  }
  const user = opened[0];
  const sessionToken = await runChange(ctx, async (tx) => {
    // The password changed or reset, or the account deactivated, since it was checked: no session from the old one.
    if (!(await holdStandingAccount(tx, user.id, user.password_hash!))) return undefined;
    const token = await insertSession(tx, user.id, browser, ctx.now());
    await recordAudit(tx, { ...byPerson(user, browser.clientAddress ?? null), at: ctx.now(), action: 'session.signIn', target: { kind: 'user', id: user.id } });
    return token;
  });
  if (sessionToken === undefined) return { outcome: 'wrongCredentials', accounts: [{ id: user.id, team_id: user.team_id }] };
  return { outcome: 'signedIn', sessionToken, user };
}

/** A person signing in through their team's provider, as the provider named them; `linked`: whether that name is already theirs. */
export interface SsoSignIn {
  person: Pick<UsersTable, 'id' | 'team_id'>;
  identity: { issuer: string; subject: string; linked: boolean };
  accountCreated: boolean;
}

/**
 * A sign-in through the team's provider, from the browser given, in one transaction: the provider's name
 * for the person kept (the first time), a new session (its token answered, stored hashed) and the audit
 * log's `session.signIn`. Undefined, and nothing written, when the person was deactivated meanwhile.
 */
export async function openSsoSession(ctx: CommandContext, browser: Browser, { person, identity, accountCreated }: SsoSignIn): Promise<string | undefined> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    // Deactivated since the sign-in looked (its sessions ended): undefined, no session.
    if (!(await holdStandingAccount(tx, person.id))) return undefined;
    if (!identity.linked) {
      // Two sign-ins of a new name at once (two tabs): the second finds it kept by the first.
      await tx
        .insertInto('sso_identities')
        .values({ team_id: person.team_id, issuer: identity.issuer, subject: identity.subject, user_id: person.id, created_at: now })
        .onConflict((conflict) => conflict.columns(['team_id', 'issuer', 'subject']).doNothing())
        .execute();
    }
    const sessionToken = await insertSession(tx, person.id, browser, now);
    const details = { method: 'sso', issuer: identity.issuer, ...(accountCreated ? { accountCreated: true } : {}) };
    await recordAudit(tx, { ...byPerson(person, browser.clientAddress ?? null), at: now, action: 'session.signIn', target: { kind: 'user', id: person.id }, details });
    return sessionToken;
  });
}

async function insertSession(tx: Tx, userId: string, browser: Browser, now: number): Promise<string> {
  const sessionToken = newSecret('as_s_');
  await tx
    .insertInto('sessions')
    .values({
      token_hash: hashToken(sessionToken),
      user_id: userId,
      created_at: now,
      expires_at: now + SESSION_LIFETIME_MS,
      user_agent: browser.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      client_address: browser.clientAddress ?? null,
      last_seen_at: now,
    })
    .execute();
  await recordPersonSeen(tx, userId, now);
  return sessionToken;
}

/** Ends the session; every process closes the streams and listen connections it opened at once. */
export async function signOut(ctx: CommandContext, { clientAddress }: Browser, { sessionToken }: { sessionToken: string }): Promise<void> {
  const address = clientAddress ?? null;
  await runChange(ctx, async (tx, effects) => {
    const ended = await tx.deleteFrom('sessions').where('token_hash', '=', hashToken(sessionToken)).returning('user_id').executeTakeFirst();
    if (!ended) return;
    effects.add({ kind: 'credentialsEnded', notice: { userId: ended.user_id } });
    const person = await tx.selectFrom('users').select(['id', 'team_id']).where('id', '=', ended.user_id).executeTakeFirstOrThrow();
    await recordAudit(tx, { ...byPerson(person, address), at: ctx.now(), action: 'session.signOut', target: { kind: 'user', id: person.id } });
  });
}
