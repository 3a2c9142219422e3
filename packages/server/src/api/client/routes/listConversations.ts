import { clientRoutes } from '@aviary/protocol';
import { listConversations } from '../../../core/queries/conversations.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.listConversations, async (_params, person, ctx) => ({
  conversations: await listConversations(ctx.db, person),
}));
