import { developerRoutes } from '@aviary/protocol';
import { resumeAppDelivery } from '../../../events/history/eventHistory.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.resumeDelivery, async ({ id }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  await resumeAppDelivery(ctx, app.id);
  ctx.events.deliveryChanged(app.id);
  return { resumed: true as const };
});
