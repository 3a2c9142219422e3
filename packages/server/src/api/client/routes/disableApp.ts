import { clientRoutes } from '@aviary/protocol';
import { setAppDisabledByUser } from '../../../core/commands/installs.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.disableApp, async ({ id }, person, ctx) => {
  await setAppDisabledByUser(ctx, { appId: id, userId: person.id, disabled: true });
  return { disabledByUser: true as const };
});
