import { clientRoutes } from '@aviary/protocol';
import { markChatRead } from '../../../core/commands/readMarkers.js';
import { defineRouteHandler } from '../../routeHandler.js';

export default defineRouteHandler(clientRoutes.markChatRead, async ({ chat, uid }, person, ctx) => markChatRead(ctx, person, chat, uid));
