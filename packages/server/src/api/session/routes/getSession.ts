import { sessionRoutes } from '@aviary/protocol';
import { presentUser } from '../../../core/presenters/users.js';
import { teamAndStreamPosition } from '../../../core/queries/stream.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The cookie is HttpOnly: this is how the web client learns, on load, who is signed in (and where its stream starts). */
export default defineRouteHandler(sessionRoutes.getSession, async (_params, person, ctx) => ({
  user: presentUser(person),
  ...(await teamAndStreamPosition(ctx.db, person.team_id)),
}));
