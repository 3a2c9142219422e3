import { clientRoutes } from '@aviary/protocol';
import { presentClientApp } from '../../../core/presenters/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The apps of the person's team, by name, with the person's own install of each. */
export default defineRouteHandler(clientRoutes.listApps, async (_params, person, ctx) => {
  const apps = await ctx.db.selectFrom('apps').selectAll().where('team_id', '=', person.team_id).orderBy('name').orderBy('id').execute();
  const installs = await ctx.db.selectFrom('installs').select(['app_id', 'disabled_by_user']).where('user_id', '=', person.id).execute();
  const installOf = new Map(installs.map((install) => [install.app_id, install]));
  return { apps: apps.map((row) => presentClientApp(row, installOf.get(row.id), ctx.events.tunnels.has(row.id))) };
});
