import { clientRoutes } from '@aviary/protocol';
import { setAppCreators } from '../../../core/commands/teams.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { ApiError } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** A team admin changes who may create apps. */
export default defineRouteHandler(clientRoutes.updateTeam, async ({ appCreators }, person, ctx) => {
  if (person.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may change the team's settings, such as who may create apps.`);
  return { team: presentTeam(await setAppCreators(ctx.db, person.team_id, appCreators)) };
});
