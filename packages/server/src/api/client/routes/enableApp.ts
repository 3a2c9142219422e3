import { clientRoutes } from '@aviary/protocol';
import { setAppDisabledByUser } from '../../../core/commands/installs.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.enableApp, async ({ id }, person, ctx) => {
  await setAppDisabledByUser(ctx, { appId: id, userId: person.id, disabled: false });
  return { disabledByUser: false as const };
});
