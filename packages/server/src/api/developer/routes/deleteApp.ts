import { developerRoutes } from '@aviary/protocol';
import { deleteApp } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp } from '../access.js';

export default defineRouteHandler(developerRoutes.deleteApp, async ({ id }, person, ctx) => {
  const { app } = await reachableApp(ctx.db, person, id);
  await deleteApp(ctx, app.id, ctx.now());
  return { deleted: true as const };
});
