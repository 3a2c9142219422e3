import { api } from '@aviary/protocol';
import { presentTeam } from '../../../core/presenters/teams.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.team.getInfo, async (_params, { user }, ctx) => {
  const team = await ctx.db.selectFrom('teams').selectAll().where('id', '=', user.team_id).executeTakeFirstOrThrow();
  return { team: presentTeam(team) };
});
