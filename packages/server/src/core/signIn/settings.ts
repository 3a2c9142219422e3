import type { OidcProviderConfig } from '../../config/oidc.js';
import type { SecretKeyring } from '../../store/secretKeys.js';
import type { TeamSignInTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';

/** Where a team's provider comes from: its own settings, the environment's (AVIARY_OIDC_*), or none. */
export type ProviderSource = 'team' | 'environment' | null;

/** How a team's people sign in: by password (unless switched off), and through a provider when one applies. */
export interface SignInSettings {
  teamId: string;
  passwordEnabled: boolean;
  provider: OidcProviderConfig | undefined;
  source: ProviderSource;
}

/** What `updateSignInSettings` may change; a field left out stays, `provider: null` removes the team's own. */
export interface SignInChange {
  passwordEnabled?: boolean;
  provider?: null | { issuer: string; clientId: string; clientSecret?: string; allowedDomains: string[]; createAccounts: boolean };
}

/** Where the settings live: the store, its keyring (the client secret is sealed with it) and the environment's provider. */
export interface SignInStore {
  db: Db | Tx;
  keyring: SecretKeyring;
  envProvider: OidcProviderConfig | undefined;
}

const teamRow = (db: Db | Tx, teamId: string) => db.selectFrom('team_sign_in').selectAll().where('team_id', '=', teamId).executeTakeFirst();

function settingsOf(teamId: string, row: TeamSignInTable | undefined, keyring: SecretKeyring, envProvider: OidcProviderConfig | undefined): SignInSettings {
  const passwordEnabled = row === undefined || row.password_enabled === 1;
  if (row?.oidc_issuer && row.oidc_client_id && row.oidc_client_secret_sealed) {
    const provider = {
      issuer: row.oidc_issuer,
      clientId: row.oidc_client_id,
      clientSecret: keyring.open(row.oidc_client_secret_sealed),
      allowedDomains: JSON.parse(row.oidc_allowed_domains) as string[],
      createAccounts: row.oidc_create_accounts === 1,
    };
    return { teamId, passwordEnabled, provider, source: 'team' };
  }
  return { teamId, passwordEnabled, provider: envProvider, source: envProvider ? 'environment' : null };
}

export async function signInSettings(store: SignInStore, teamId: string): Promise<SignInSettings> {
  return settingsOf(teamId, await teamRow(store.db, teamId), store.keyring, store.envProvider);
}

/**
 * Changes a team's sign-in settings. Password sign-in cannot be switched off while the team has no
 * provider: nobody could sign in at all. A provider given without a client secret keeps the one stored.
 */
export async function updateSignInSettings(store: SignInStore, teamId: string, change: SignInChange, now: number): Promise<SignInSettings> {
  const row = await teamRow(store.db, teamId);
  const current = settingsOf(teamId, row, store.keyring, store.envProvider);
  let sealed = row?.oidc_client_secret_sealed ?? null;
  let provider = row?.oidc_issuer ? { issuer: row.oidc_issuer, clientId: row.oidc_client_id, domains: row.oidc_allowed_domains, create: row.oidc_create_accounts } : null;
  if (change.provider === null) {
    provider = null;
    sealed = null;
  } else if (change.provider !== undefined) {
    const { issuer, clientId, clientSecret, allowedDomains, createAccounts } = change.provider;
    if (clientSecret === undefined && (sealed === null || row?.oidc_client_id !== clientId)) throw new SignInSettingsError('clientSecret', 'Give the client secret the provider gave Aviary for this client id.');
    if (clientSecret !== undefined) sealed = store.keyring.seal(clientSecret);
    provider = { issuer, clientId, domains: JSON.stringify(allowedDomains), create: createAccounts ? 1 : 0 };
  }
  const passwordEnabled = change.passwordEnabled ?? current.passwordEnabled;
  if (!passwordEnabled && provider === null && !store.envProvider) {
    throw new SignInSettingsError('passwordEnabled', 'Set up single sign-on before switching password sign-in off, or nobody could sign in.');
  }
  const values: TeamSignInTable = {
    team_id: teamId,
    password_enabled: passwordEnabled ? 1 : 0,
    oidc_issuer: provider?.issuer ?? null,
    oidc_client_id: provider?.clientId ?? null,
    oidc_client_secret_sealed: provider ? sealed : null,
    oidc_allowed_domains: provider?.domains ?? '[]',
    oidc_create_accounts: provider?.create ?? 0,
    updated_at: now,
  };
  const { team_id: _teamId, ...update } = values;
  await store.db.insertInto('team_sign_in').values(values).onConflict((conflict) => conflict.column('team_id').doUpdateSet(update)).execute();
  return signInSettings(store, teamId);
}

/** A setting that cannot be changed as asked; the handler answers it as InvalidParameter naming `parameter`. */
export class SignInSettingsError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

/** Of the given teams, those whose people may not sign in with a password. */
export async function teamsWithoutPasswords(db: Db, teamIds: readonly string[]): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db.selectFrom('team_sign_in').select('team_id').where('team_id', 'in', teamIds).where('password_enabled', '=', 0).execute();
  return new Set(rows.map((row) => row.team_id));
}

/** Whether the team's people sign in through its provider alone (teamsWithoutPasswords, for one team). */
export async function passwordsOff(db: Db, teamId: string): Promise<boolean> {
  return (await teamsWithoutPasswords(db, [teamId])).size > 0;
}

/** A team that signs people in through a provider, and the email domains that provider accepts ([] for any). */
export interface SsoTeam {
  id: string;
  name: string;
  domains: string[];
}

/**
 * What the sign-in page offers: the teams a provider applies to (their own, or the environment's), and
 * the password form unless every team has switched passwords off.
 */
export async function signInChoices(db: Db, envProvider: OidcProviderConfig | undefined): Promise<{ password: boolean; teams: SsoTeam[] }> {
  const teams = await db
    .selectFrom('teams as t')
    .leftJoin('team_sign_in as s', 's.team_id', 't.id')
    .select(['t.id', 't.name', 's.password_enabled', 's.oidc_issuer', 's.oidc_allowed_domains'])
    .orderBy('t.name')
    .orderBy('t.id')
    .execute();
  const ssoTeams: SsoTeam[] = [];
  for (const team of teams) {
    if (team.oidc_issuer !== null) ssoTeams.push({ id: team.id, name: team.name, domains: JSON.parse(team.oidc_allowed_domains ?? '[]') as string[] });
    else if (envProvider !== undefined) ssoTeams.push({ id: team.id, name: team.name, domains: envProvider.allowedDomains });
  }
  return { password: teams.length === 0 || teams.some((team) => team.password_enabled !== 0), teams: ssoTeams };
}

/**
 * The team a work email signs in to, among those offering single sign-on: the one where the email has an
 * account, else the one whose provider takes its domain. Undefined for none; 'several' when it is not one.
 */
export async function ssoTeamOfEmail(db: Db, teams: readonly SsoTeam[], email: string): Promise<string | 'several' | undefined> {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  if (teams.length === 0 || !domain) return undefined;
  const ids = teams.map((team) => team.id);
  const accounts = await db.selectFrom('users').select('team_id').where('email', '=', address).where('team_id', 'in', ids).where('bot_app_id', 'is', null).execute();
  const byDomain = teams.filter((team) => team.domains.some((allowed) => allowed.toLowerCase() === domain)).map((team) => team.id);
  const candidates = accounts.length > 0 ? accounts.map((row) => row.team_id) : byDomain;
  if (candidates.length === 0) return undefined;
  return candidates.length === 1 ? candidates[0] : 'several';
}

/** Password sign-in on again for the team, its provider kept: the CLI's break-glass (cli/teamSignIn.ts). */
export async function allowPasswordSignIn(db: Db, teamId: string, now: number): Promise<void> {
  await db
    .insertInto('team_sign_in')
    .values({ team_id: teamId, password_enabled: 1, oidc_allowed_domains: '[]', oidc_create_accounts: 0, updated_at: now, oidc_issuer: null, oidc_client_id: null, oidc_client_secret_sealed: null })
    .onConflict((conflict) => conflict.column('team_id').doUpdateSet({ password_enabled: 1, updated_at: now }))
    .execute();
}
