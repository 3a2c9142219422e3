import { api } from '@aviary/protocol';
import { updateTeamSettings } from '../../../core/commands/teams.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';
import { byPerson } from '../../../core/audit/record.js';

/** A team admin changes the team's name, who may create channels, who may create apps, who may invite people, and how long people may edit and delete their messages. */
export default defineHandler(api.team.updateSettings, async ({ name, whoMayCreateChannels, appCreators, whoMayInvite, messageEditWindowMinutes }, { user, clientAddress }, ctx) => {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', `Only a team admin may change the team's settings, such as who may create apps or invite people.`);
  if ([name, whoMayCreateChannels, appCreators, whoMayInvite, messageEditWindowMinutes].every((setting) => setting === undefined)) {
    throw new ApiError('MissingParameter', 'Give at least one setting to change: name, whoMayCreateChannels, appCreators, whoMayInvite or messageEditWindowMinutes.', { parameter: 'name' });
  }
  const messageEditWindowMs = messageEditWindowMinutes === undefined ? undefined : messageEditWindowMinutes * 60_000;
  const team = presentTeam(await updateTeamSettings(ctx, byPerson(user, clientAddress).actor, { teamId: user.team_id, name, whoMayCreateChannels, appCreators, whoMayInvite, messageEditWindowMs }));
  return { team };
});
