import { api } from '@aviary/protocol';
import { presentClientApp } from '../../../core/presenters/apps.js';
import { listAppDirectory } from '../../../core/queries/appDirectory.js';
import { defineHandler } from '../../handler.js';

/** The apps of the person's team, by name, with the person's own install of each. */
export default defineHandler(api.apps.listDirectory, async (_params, { user }, ctx) => ({
  apps: (await listAppDirectory(ctx.db, user)).map(({ app, install }) => presentClientApp(app, install, ctx.events.tunnels.has(app.id))),
}));
