import { clientRoutes } from '@aviary/protocol';
import { runMessageAction } from '../../../core/interactions/messageAction.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.messageAction, async ({ client = 'desktop', ...input }, person, ctx) =>
  runMessageAction(ctx, person, { ...input, client }),
);
