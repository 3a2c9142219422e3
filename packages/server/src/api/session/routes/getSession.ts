import { sessionRoutes } from '@aviary/protocol';
import { sessionUser } from '../../../core/queries/sessions.js';
import { presentUser } from '../../../core/presenters/users.js';
import { teamAndStreamPosition } from '../../../core/queries/stream.js';
import { defineRouteHandler } from '../../routeHandler.js';

/**
 * The cookie is HttpOnly: this is how the web client learns, on load, who is signed in (and where its
 * stream starts). Nobody signed in is an answer, `{user: null}`, not a refusal: every fresh page asks.
 */
export default defineRouteHandler(sessionRoutes.getSession, async (_params, ctx, exchange) => {
  const token = exchange.sessionToken();
  const person = token ? await sessionUser(ctx.db, token, ctx.now()) : undefined;
  if (!person) return { user: null };
  return { user: presentUser(person, ctx.now()), ...(await teamAndStreamPosition(ctx.db, person.team_id)) };
});
