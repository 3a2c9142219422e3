import { clientRoutes } from '@aviary/protocol';
import { setAppDisabledByTeam } from '../../../core/commands/installs.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** A team admin's switch (PermissionDenied for anyone else). */
export default defineRouteHandler(clientRoutes.teamDisableApp, async ({ id }, person, ctx) => {
  await setAppDisabledByTeam(ctx, { appId: id, adminId: person.id, disabled: true });
  return { disabledByTeam: true as const };
});
