import { developerRoutes } from '@aviary/protocol';
import { replayEvent } from '../../../events/history/eventHistory.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.replayEvent, async ({ id, eventId }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  await replayEvent(ctx, app.id, eventId);
  ctx.events.deliveryChanged(app.id, [eventId]);
  return { replayed: true as const };
});
