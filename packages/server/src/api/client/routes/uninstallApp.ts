import { clientRoutes } from '@aviary/protocol';
import { uninstallApp } from '../../../core/commands/installs.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.uninstallApp, async ({ id }, person, ctx) => {
  await uninstallApp(ctx, { appId: id, userId: person.id });
  return { installed: false as const };
});
