import { api } from '@aviary/protocol';
import { presentClientApp } from '../../../core/presenters/apps.js';
import { defineHandler } from '../../handler.js';

/** The apps of the person's team, by name, with the person's own install of each. */
export default defineHandler(api.apps.listDirectory, async (_params, { user }, ctx) => {
  const apps = await ctx.db.selectFrom('apps').selectAll().where('team_id', '=', user.team_id).orderBy('name').orderBy('id').execute();
  const installs = await ctx.db.selectFrom('installs').select(['app_id', 'disabled_by_user']).where('user_id', '=', user.id).execute();
  const installOf = new Map(installs.map((install) => [install.app_id, install]));
  return { apps: apps.map((row) => presentClientApp(row, installOf.get(row.id), ctx.events.tunnels.has(row.id))) };
});
