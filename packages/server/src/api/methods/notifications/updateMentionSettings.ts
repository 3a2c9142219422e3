import { api } from '@aviary/protocol';
import { byPerson } from '../../../core/audit/record.js';
import { setBroadcastMentionLimit } from '../../../core/commands/teams.js';
import { presentTeam } from '../../../core/presenters/teams.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

/** A team admin sets the channel size above which only team admins may use @channel and @here. */
export default defineHandler(api.team.updateMentionSettings, async ({ broadcastMentionLimit }, { user, clientAddress }, ctx) => {
  if (user.role !== 'admin') throw new ApiError('PermissionDenied', 'Only a team admin may change who may use @channel and @here.');
  const team = presentTeam(await setBroadcastMentionLimit(ctx, byPerson(user, clientAddress).actor, { teamId: user.team_id, limit: broadcastMentionLimit }));
  return { team };
});
