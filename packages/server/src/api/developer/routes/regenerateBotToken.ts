import { developerRoutes } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { ApiError } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';

export default defineRouteHandler(developerRoutes.regenerateBotToken, async ({ id }, person, ctx) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'regenerate the bot token');
  if (reachable.app.bot_user_id === null) throw new ApiError('BotNotEnabled', 'The app has no bot yet; enable it with POST /api/developer/apps/:id/bot.');
  return enableBot(ctx.db, reachable.app.id, ctx.now());
});
