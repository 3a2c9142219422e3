import { developerRoutes } from '@aviary/protocol';
import { rotateAppSecret } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloper } from '../access.js';
import { byPerson, recordAudit } from '../../../core/audit/record.js';

export default defineRouteHandler(developerRoutes.rotateSecret, async ({ id }, person, ctx, exchange) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloper(reachable, 'rotate the app secret');
  const rotated = await rotateAppSecret(ctx, reachable.app.id, ctx.now());
  await recordAudit(ctx.db, { ...byPerson(person, exchange.clientAddress()), at: ctx.now(), action: 'app.secretRotated', target: { kind: 'app', id: reachable.app.id } });
  return rotated;
});
