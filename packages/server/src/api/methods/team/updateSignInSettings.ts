import { api } from '@aviary/protocol';
import { byPerson } from '../../../core/audit/record.js';
import { changeSignInSettings } from '../../../core/commands/signInSettings.js';
import { presentSignInSettings } from '../../../core/presenters/signInSettings.js';
import { SignInSettingsError } from '../../../core/signIn/settings.js';
import { emailDomains, issuerProblem } from '../../../config/oidc.js';
import { ApiError, invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { ssoCallbackUrl } from '../../sso/ssoRoutes.js';
import { onlyTeamAdmins } from './signInAdmin.js';

/** A team admin sets the team's provider and switches password sign-in on or off; recorded in the audit log (never the secret). */
export default defineHandler(api.team.updateSignInSettings, async ({ passwordEnabled, provider }, { user, clientAddress }, ctx) => {
  onlyTeamAdmins(user, 'change');
  if (passwordEnabled === undefined && provider === undefined) {
    throw new ApiError('MissingParameter', 'Give at least one setting to change: passwordEnabled or provider.', { parameter: 'passwordEnabled' });
  }
  // "" clears as null does (a form's emptied field).
  let checked = provider === '' ? null : provider;
  if (provider) {
    const problem = issuerProblem(provider.issuer.trim());
    if (problem) throw invalidParameter('provider.issuer', problem);
    const allowedDomains = emailDomains(provider.allowedDomains);
    if (typeof allowedDomains === 'string') throw invalidParameter('provider.allowedDomains', allowedDomains);
    checked = { ...provider, issuer: provider.issuer.trim(), clientId: provider.clientId.trim(), allowedDomains };
  }
  let settings;
  try {
    settings = await changeSignInSettings(ctx, byPerson(user, clientAddress).actor, { teamId: user.team_id, passwordEnabled, provider: checked });
  } catch (error) {
    if (error instanceof SignInSettingsError) throw invalidParameter(error.parameter === 'clientSecret' ? 'provider.clientSecret' : error.parameter, error.message);
    throw error;
  }
  return { settings: presentSignInSettings(settings, ssoCallbackUrl(ctx)) };
});
