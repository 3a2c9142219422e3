import { developerRoutes } from '@aviary/protocol';
import { checkIntegrations } from '../../../core/appFields.js';
import { updateApp } from '../../../core/commands/apps.js';
import { defineRouteHandler } from '../../routeHandler.js';
import { reachableApp, requireDeveloperForRouting } from '../access.js';

/** The body is the whole integrations object, so a problem is named by its path inside it (`slashCommands[0].name`). */
export default defineRouteHandler(developerRoutes.setIntegrations, async ({ id, integrations: body }, person, ctx) => {
  const reachable = await reachableApp(ctx.db, person, id);
  const integrations = checkIntegrations(body, '');
  requireDeveloperForRouting(reachable, { integrations });
  await updateApp(ctx.db, reachable.app.id, { integrations }, ctx.now());
  return { integrations };
});
