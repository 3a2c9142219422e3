import type { Config } from '../../config.js';
import { lockRows } from '../../store/rows/locks.js';
import type { Store, Tx } from '../../store/store.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { allowPasswordSignIn, SignInSettingsError, updateSignInSettings, type SignInChange, type SignInSettings } from '../signIn/settings.js';
import { holdAdminStanding } from './internal/personRows.js';

/** What changing a team's sign-in needs beyond the store: its keyring (the client secret is sealed with it) and the environment's provider. */
export type SignInContext = CommandContext & { store: Pick<Store, 'keyring'>; config: Pick<Config, 'oidc'> };

/**
 * A team's sign-in settings change (team.updateSignInSettings; the rules are updateSignInSettings'), with
 * the audit log's `team.signInSettingsChanged` in the same transaction: what changed, never the secret.
 * `actor`: the team admin whose role the handler checked, checked again in the transaction. A refusal is
 * a SignInSettingsError.
 */
export async function changeSignInSettings(ctx: SignInContext, actor: AuditActor, { teamId, ...change }: SignInChange & { teamId: string }): Promise<SignInSettings> {
  const now = ctx.now();
  const { provider } = change;
  const details = {
    passwordEnabled: change.passwordEnabled,
    provider: provider === undefined ? undefined : provider && { issuer: provider.issuer, clientId: provider.clientId, allowedDomains: provider.allowedDomains, createAccounts: provider.createAccounts, secretChanged: provider.clientSecret !== undefined },
  };
  return runChange(ctx, async (tx) => {
    // The settings are read, changed and written whole: changes take turns on the team's row (PostgreSQL).
    if (actor.userId !== null) await holdAdminStanding(tx, { id: actor.userId, team_id: teamId });
    else await lockRows(tx, 'teams', 'id', [teamId], 'update');
    const settings = await updateSignInSettings({ db: tx, keyring: ctx.store.keyring, envProvider: ctx.config.oidc }, teamId, change, now);
    if (actor.userId !== null && !settings.passwordEnabled && settings.provider) await requireSignedInThrough(tx, teamId, actor.userId, settings.provider.issuer);
    await recordAudit(tx, { teamId, actor, at: now, action: 'team.signInSettingsChanged', target: { kind: 'team', id: teamId }, details });
    return settings;
  });
}

/**
 * Passwords go off (or the provider changes while they are off) only once the admin making the change has
 * signed in through that provider: a provider that does not work (a mistyped issuer, a wrong client id)
 * would otherwise lock the whole team out, and only an operator's command line could let it back in.
 */
async function requireSignedInThrough(tx: Tx, teamId: string, adminId: string, issuer: string): Promise<void> {
  const identity = await tx.selectFrom('sso_identities').select('subject').where('team_id', '=', teamId).where('user_id', '=', adminId).where('issuer', '=', issuer).executeTakeFirst();
  if (identity) return;
  throw new SignInSettingsError(
    'passwordEnabled',
    `Sign in once through ${issuer} yourself before switching passwords off: that shows the provider works, so that nobody is locked out. ` +
      'Keep passwords on meanwhile.',
  );
}

/**
 * The break-glass of single sign-on (`aviary team sign-in --password on`): the team's people may sign in
 * with their passwords again, recorded in the audit log in the same transaction.
 */
export async function allowPasswordsAgain(ctx: CommandContext, actor: AuditActor, { teamId }: { teamId: string }): Promise<void> {
  const now = ctx.now();
  await runChange(ctx, async (tx) => {
    // In turn with the other changes of the settings (changeSignInSettings), which read and write them whole.
    await lockRows(tx, 'teams', 'id', [teamId], 'update');
    await allowPasswordSignIn(tx, teamId, now);
    await recordAudit(tx, { teamId, actor, at: now, action: 'team.signInSettingsChanged', target: { kind: 'team', id: teamId }, details: { passwordEnabled: true } });
  });
}
