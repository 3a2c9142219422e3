import { sessionRoutes } from '@aviary/protocol';
import { signOut } from '../../../core/commands/sessions.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { sessionCookie } from '../sessionToken.js';

/** Ends the session the request carries, if any, and clears the cookie either way. */
export default defineRouteHandler(sessionRoutes.signOut, async (_params, ctx, exchange) => {
  const token = exchange.sessionToken();
  if (token) await signOut(ctx, { clientAddress: exchange.clientAddress() }, { sessionToken: token });
  exchange.setHeader('set-cookie', sessionCookie(ctx.config, ''));
  return {};
});
