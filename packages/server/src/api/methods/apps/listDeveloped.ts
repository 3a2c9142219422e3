import { api } from '@aviary/protocol';
import { presentDeveloperApp } from '../../../core/presenters/apps.js';
import { appsDevelopedBy } from '../../../core/queries/apps.js';
import { defineHandler } from '../../handler.js';

export default defineHandler(api.apps.listDeveloped, async (_params, { user }, ctx) => {
  const apps = await appsDevelopedBy(ctx.db, user.id);
  return { apps: apps.map((app) => presentDeveloperApp(app, { withSecret: true })) };
});
