import { clientRoutes } from '@aviary/protocol';
import { runServicemlAction } from '../../../core/interactions/servicemlAction.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.servicemlAction, async ({ client = 'desktop', ...input }, person, ctx) =>
  runServicemlAction(ctx, person, { ...input, client }),
);
