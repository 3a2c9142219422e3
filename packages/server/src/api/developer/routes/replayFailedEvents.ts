import { developerRoutes } from '@aviary/protocol';
import { replayFailedEvents } from '../../../events/history/eventHistory.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.replayFailedEvents, async ({ id }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  const replayed = await replayFailedEvents(ctx, app.id);
  if (replayed > 0) ctx.events.deliveryChanged(app.id);
  return { replayed };
});
