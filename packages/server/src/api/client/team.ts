import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { setAppCreators } from '../../core/commands/teams.js';
import { appCreatorChoices } from '../../core/policies/apps.js';
import type { TeamsTable } from '../../store/schema.js';
import { ApiError, invalidParameter } from '../errors.js';
import { signedInPerson } from '../session/auth.js';
import { bodyFields, requiredChoice } from './body.js';

const teamFields = ['appCreators'];

/**
 * GET /api/client/team — the person's team and its settings. PATCH /api/client/team {appCreators} —
 * a team admin changes who may create apps: `members` (members and admins), `admins`, `everyone`.
 */
export function registerTeamRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/team', async (request) => {
    const person = signedInPerson(request);
    const team = await ctx.db.selectFrom('teams').selectAll().where('id', '=', person.team_id).executeTakeFirstOrThrow();
    return { team: presentTeam(team) };
  });

  app.patch('/team', async (request) => {
    const person = signedInPerson(request);
    if (person.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may change the team's settings, such as who may create apps.`);
    const fields = bodyFields(request);
    const unknown = Object.keys(fields).find((key) => !teamFields.includes(key));
    if (unknown !== undefined) throw invalidParameter(unknown, `"${unknown}" is not a team setting; the settings are ${teamFields.join(', ')}.`);
    const appCreators = requiredChoice(fields, 'appCreators', appCreatorChoices);
    return { team: presentTeam(await setAppCreators(ctx.db, person.team_id, appCreators)) };
  });
}

function presentTeam(team: Pick<TeamsTable, 'id' | 'name' | 'app_creators'>): { id: string; name: string; appCreators: TeamsTable['app_creators'] } {
  return { id: team.id, name: team.name, appCreators: team.app_creators };
}
