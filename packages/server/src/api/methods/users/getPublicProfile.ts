import { api } from '@aviary/protocol';
import { presentPublicProfile } from '../../../core/presenters/users.js';
import { findTeammateProfile } from '../../../core/queries/roster.js';
import { ApiError } from '../../errors.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.users.getPublicProfile, async (params, caller, ctx) => {
  // Another team's user answers exactly like one that does not exist: teams never learn of each other's people.
  const row = await findTeammateProfile(ctx.db, caller.user.team_id, params.userId);
  if (!row) throw new ApiError('UnknownUser', `There is no user ${params.userId} in your team.`, { parameter: 'userId' });
  return presentPublicProfile(row, ctx.now());
});
