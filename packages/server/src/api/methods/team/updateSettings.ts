import { api } from '@aviary/protocol';
import { updateTeamSettings } from '../../../core/commands/teams.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/** A team admin changes who may create apps, who may invite people, and how long people may edit and delete their messages. */
export default defineHandler(api.team.updateSettings, async ({ appCreators, whoMayInvite, messageEditWindowMinutes }, { user }, ctx) => {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may change the team's settings, such as who may create apps or invite people.`);
  if (appCreators === undefined && whoMayInvite === undefined && messageEditWindowMinutes === undefined) {
    throw new ApiError('MissingParameter', 'Give at least one setting to change: appCreators, whoMayInvite or messageEditWindowMinutes.', { parameter: 'appCreators' });
  }
  const messageEditWindowMs = messageEditWindowMinutes === undefined ? undefined : messageEditWindowMinutes * 60_000;
  return { team: presentTeam(await updateTeamSettings(ctx.db, user.team_id, { appCreators, whoMayInvite, messageEditWindowMs })) };
});
