import { developerRoutes } from '@aviary/protocol';
import { sendPlannedTestEvent } from '../../../core/testEvents/send.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { appOfDeliveryLog } from '../access.js';

export default defineRouteHandler(developerRoutes.sendTestEvent, async ({ id, name, ...overrides }, person, ctx) => {
  const app = await appOfDeliveryLog(ctx.db, person, id);
  return sendPlannedTestEvent(ctx, app, person, name, overrides);
});
