import { clientRoutes } from '@aviary/protocol';
import { presentTeam } from '../../../core/presenters/teams.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.getTeam, async (_params, person, ctx) => {
  const team = await ctx.db.selectFrom('teams').selectAll().where('id', '=', person.team_id).executeTakeFirstOrThrow();
  return { team: presentTeam(team) };
});
