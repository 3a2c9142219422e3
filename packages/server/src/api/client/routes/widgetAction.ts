import { clientRoutes } from '@aviary/protocol';
import { runWidgetAction } from '../../../core/interactions/widgetAction.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The widget's own call (Aviary.openWidget / openBrowser), checked as an integration's action is. */
export default defineRouteHandler(clientRoutes.widgetAction, async ({ client = 'desktop', ...input }, person, ctx) =>
  runWidgetAction(ctx, person, { ...input, client }),
);
