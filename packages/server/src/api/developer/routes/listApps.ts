import { developerRoutes } from '@aviary/protocol';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(developerRoutes.listApps, async (_params, person, ctx) => {
  const apps = await ctx.db.selectFrom('apps').selectAll().where('developer_id', '=', person.id).orderBy('created_at').orderBy('id').execute();
  return { apps: apps.map((app) => presentDeveloperApp(app, { withSecret: true })) };
});
