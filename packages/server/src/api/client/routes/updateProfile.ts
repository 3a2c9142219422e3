import { clientRoutes } from '@aviary/protocol';
import { updateProfile } from '../../../core/commands/people.js';
import { presentUser } from '../../../core/presenters/users.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The fields are checked by core's one person-fields check (core/personFields.ts), as for a new person; the team hears of the change (user.updated). */
export default defineRouteHandler(clientRoutes.updateProfile, async (params, person, ctx) => ({
  user: presentUser(await updateProfile(ctx, person, params)),
}));
