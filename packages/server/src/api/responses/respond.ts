import { responseRoutes } from '@aviary/protocol';
import { replyThroughResponseUrl } from '../../core/responses/reply.js';
import { defineRouteHandler } from '../routeHandler.js';

/** POST /api/respond/:token: a deferred reply; the token in the path is the only credential. */
export default defineRouteHandler(responseRoutes.respond, async (params, ctx) => replyThroughResponseUrl(ctx, params));
