import { developerRoutes } from '@aviary/protocol';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp } from '../access.js';

export default defineRouteHandler(developerRoutes.getApp, async ({ id }, person, ctx) => {
  const { app, isDeveloper } = await reachableApp(ctx.db, person, id);
  return { app: presentDeveloperApp(app, { withSecret: isDeveloper }) };
});
