import { api } from '@aviary/protocol';
import { updateProfile } from '../../../core/commands/people.js';
import { presentUser } from '../../../core/presenters/users.js';
import { defineHandler } from '../../handler.js';

/** The fields are checked by core's one person-fields check (core/personFields.ts), as for a new person; the team hears of the change (user.updated). */
export default defineHandler(api.users.updateProfile, async (params, { user }, ctx) => ({
  user: presentUser(await updateProfile(ctx, user, params), ctx.now()),
}));
