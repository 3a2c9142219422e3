import { developerRoutes } from '@aviary/protocol';
import { rotateAppSecret } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';

export default defineRouteHandler(developerRoutes.rotateSecret, async ({ id }, person, ctx) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'rotate the app secret');
  return rotateAppSecret(ctx, reachable.app.id, ctx.now());
});
