import { clientRoutes } from '@aviary/protocol';
import { installApp } from '../../../core/commands/installs.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The new token goes to the app only, in app.install: never to the person. */
export default defineRouteHandler(clientRoutes.installApp, async ({ id }, person, ctx) => {
  await installApp(ctx, { appId: id, userId: person.id });
  return { installed: true as const };
});
