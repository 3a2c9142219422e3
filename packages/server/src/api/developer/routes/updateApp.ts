import { developerRoutes } from '@aviary/protocol';
import { updateApp } from '../../../core/commands/apps.js';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloperForRouting } from '../access.js';

export default defineRouteHandler(developerRoutes.updateApp, async ({ id, ...changes }, person, ctx) => {
  const reachable = await reachableApp(ctx.db, person, id);
  requireDeveloperForRouting(reachable, changes);
  const updated = await updateApp(ctx.db, reachable.app.id, changes, ctx.now());
  return { app: presentDeveloperApp(updated, { withSecret: reachable.isDeveloper }) };
});
