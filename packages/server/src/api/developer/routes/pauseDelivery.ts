import { developerRoutes } from '@aviary/protocol';
import { pauseAppDelivery } from '../../../events/history/eventHistory.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.pauseDelivery, async ({ id }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  await pauseAppDelivery(ctx, app.id);
  ctx.events.deliveryChanged(app.id);
  return { paused: true as const };
});
