import { api } from '@aviary/protocol';
import { presentSignInSettings } from '../../../core/presenters/signInSettings.js';
import { signInSettings } from '../../../core/signIn/settings.js';
import { defineHandler } from '../../handler.js';
import { ssoCallbackUrl } from '../../sso/ssoRoutes.js';
import { onlyTeamAdmins, signInStore } from './signInAdmin.js';

/** A team admin reads how the team signs in. */
export default defineHandler(api.team.getSignInSettings, async (_params, { user }, ctx) => {
  onlyTeamAdmins(user, 'read');
  return { settings: presentSignInSettings(await signInSettings(signInStore(ctx), user.team_id), ssoCallbackUrl(ctx)) };
});
