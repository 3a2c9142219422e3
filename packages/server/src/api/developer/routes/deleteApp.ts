import { developerRoutes } from '@aviary/protocol';
import { deleteApp } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp } from '../access.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineRouteHandler(developerRoutes.deleteApp, async ({ id }, person, ctx, exchange) => {
  const { app } = await reachableApp(ctx.db, person, id);
  await deleteApp(ctx, app.id, ctx.now());
  await recordAudit(ctx.db, { ...byPerson(person, exchange.clientAddress()), at: ctx.now(), action: 'app.deleted', target: { kind: 'app', id: app.id }, details: { name: app.name } });
  return { deleted: true as const };
});
