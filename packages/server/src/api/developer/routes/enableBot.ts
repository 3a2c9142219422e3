import { developerRoutes } from '@aviary/protocol';
import { enableBot } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineRouteHandler(developerRoutes.enableBot, async ({ id }, person, ctx, exchange) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'enable the bot');
  const bot = await enableBot(ctx.db, reachable.app.id, ctx.now());
  await recordAudit(ctx.db, { ...byPerson(person, exchange.clientAddress()), at: ctx.now(), action: 'app.botEnabled', target: { kind: 'app', id: reachable.app.id } });
  return bot;
});
