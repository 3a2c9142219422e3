import { sessionRoutes } from '@aviary/protocol';
import { signInChoices } from '../../../core/signIn/settings.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** What the sign-in page shows: the password form unless every team switched it off, and how single sign-on starts, naming no team. */
export default defineRouteHandler(sessionRoutes.getSignInMethods, async (_params, ctx) => {
  const { password, teams } = await signInChoices(ctx.db, ctx.config.oidc);
  const sso = teams.length === 0 ? 'off' : teams.length === 1 ? 'button' : 'email';
  return { password, sso } as const;
});
