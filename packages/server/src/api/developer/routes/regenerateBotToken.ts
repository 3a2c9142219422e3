import { developerRoutes } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { ApiError } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineRouteHandler(developerRoutes.regenerateBotToken, async ({ id }, person, ctx, exchange) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'regenerate the bot token');
  if (reachable.app.bot_user_id === null) throw new ApiError('BotNotEnabled', 'The app has no bot yet; enable it with POST /api/developer/apps/:id/bot.');
  const bot = await enableBot(ctx.db, reachable.app.id, ctx.now());
  await recordAudit(ctx.db, { ...byPerson(person, exchange.clientAddress()), at: ctx.now(), action: 'app.botTokenRegenerated', target: { kind: 'app', id: reachable.app.id } });
  return bot;
});
