import type { Config } from '../../config.js';
import { lockRows } from '../../store/rows/locks.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditActor } from '../audit/record.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { allowPasswordSignIn, updateSignInSettings, type SignInChange, type SignInSettings } from '../signIn/settings.js';
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
    await recordAudit(tx, { teamId, actor, at: now, action: 'team.signInSettingsChanged', target: { kind: 'team', id: teamId }, details });
    return settings;
  });
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
