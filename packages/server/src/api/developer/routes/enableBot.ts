import { developerRoutes } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';

export default defineRouteHandler(developerRoutes.enableBot, async ({ id }, person, ctx) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'enable the bot');
  return enableBot(ctx.db, reachable.app.id, ctx.now());
});
