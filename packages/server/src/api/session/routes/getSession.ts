import { sessionRoutes } from '@aviary/protocol';
import { presentUser } from '../../../core/presenters/users.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The cookie is HttpOnly: this is how the web client learns, on load, who is signed in. */
export default defineRouteHandler(sessionRoutes.getSession, async (_params, person, ctx) => {
  const team = await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', '=', person.team_id).executeTakeFirstOrThrow();
  return { user: presentUser(person), team };
});
