import { api } from '@aviary/protocol';
import { byPerson, recordAudit } from '../../../core/audit/record.js';
import { presentSignInSettings } from '../../../core/presenters/signInSettings.js';
import { SignInSettingsError, updateSignInSettings } from '../../../core/signIn/settings.js';
import { emailDomains, issuerProblem } from '../../../config/oidc.js';
import { ApiError, invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { ssoCallbackUrl } from '../../sso/ssoRoutes.js';
import { onlyTeamAdmins, signInStore } from './signInAdmin.js';

/** A team admin sets the team's provider and switches password sign-in on or off; recorded in the audit log (never the secret). */
export default defineHandler(api.team.updateSignInSettings, async ({ passwordEnabled, provider }, { user, clientAddress }, ctx) => {
  onlyTeamAdmins(user, 'change');
  if (passwordEnabled === undefined && provider === undefined) {
    throw new ApiError('MissingParameter', 'Give at least one setting to change: passwordEnabled or provider.', { parameter: 'passwordEnabled' });
  }
  let checked = provider;
  if (provider) {
    const problem = issuerProblem(provider.issuer.trim());
    if (problem) throw invalidParameter('provider.issuer', problem);
    const allowedDomains = emailDomains(provider.allowedDomains);
    if (typeof allowedDomains === 'string') throw invalidParameter('provider.allowedDomains', allowedDomains);
    checked = { ...provider, issuer: provider.issuer.trim(), clientId: provider.clientId.trim(), allowedDomains };
  }
  let settings;
  try {
    settings = await updateSignInSettings(signInStore(ctx), user.team_id, { passwordEnabled, provider: checked }, ctx.now());
  } catch (error) {
    if (error instanceof SignInSettingsError) throw invalidParameter(error.parameter === 'clientSecret' ? 'provider.clientSecret' : error.parameter, error.message);
    throw error;
  }
  const details = { passwordEnabled, provider: checked === undefined ? undefined : checked && { issuer: checked.issuer, clientId: checked.clientId, allowedDomains: checked.allowedDomains, createAccounts: checked.createAccounts, secretChanged: checked.clientSecret !== undefined } };
  await recordAudit(ctx.db, { ...byPerson(user, clientAddress), at: ctx.now(), action: 'team.signInSettingsChanged', target: { kind: 'team', id: user.team_id }, details });
  return { settings: presentSignInSettings(settings, ssoCallbackUrl(ctx)) };
});
