import { sessionRoutes } from '@aviary/protocol';
import { signInChoices } from '../../../core/signIn/settings.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { SSO_START_PATH } from '../../sso/ssoRoutes.js';

/** What the sign-in page shows: the password form unless every team switched it off, and a button per team with single sign-on. */
export default defineRouteHandler(sessionRoutes.getSignInMethods, async (_params, _person, ctx) => {
  const { password, teams } = await signInChoices(ctx.db, ctx.config.oidc);
  return { password, sso: teams.map((team) => ({ teamId: team.id, teamName: team.name, ssoUrl: `${SSO_START_PATH}?team=${encodeURIComponent(team.id)}` })) };
});
