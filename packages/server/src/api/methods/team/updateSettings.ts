import { api } from '@aviary/protocol';
import { setTeamSettings } from '../../../core/commands/teams.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/** A team admin changes who may create apps and who may invite people. */
export default defineHandler(api.team.updateSettings, async ({ appCreators, whoMayInvite }, { user }, ctx) => {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may change the team's settings, such as who may create apps or invite people.`);
  return { team: presentTeam(await setTeamSettings(ctx.db, user.team_id, { appCreators, whoMayInvite })) };
});
