import { developerRoutes } from '@aviary/protocol';
import { listAppEvents } from '../../../events/history/eventHistory.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.listEvents, async ({ id, ...page }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  return { events: await listAppEvents(ctx.db, app.id, page) };
});
