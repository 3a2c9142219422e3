import { developerRoutes } from '@aviary/protocol';
import { sendTestEvent } from '../../../events/delivery/testEvent.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.sendTestEvent, async ({ id, name }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  return sendTestEvent(ctx, app, person, name);
});
