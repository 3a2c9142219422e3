import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { requireSession } from '../session/auth.js';
import { registerActionRoutes } from './actions.js';
import { registerConversationRoutes } from './conversations.js';
import { registerMessageRoutes } from './messages.js';
import { registerReadMarkerRoute } from './readMarkers.js';
import { registerStreamTicketRoute } from './streamTicket.js';
import { registerRosterRoutes } from './roster.js';
import { registerTeamRoutes } from './team.js';

/** The client API: what the web client calls for a signed-in person, under /api/client, JSON in and out. */
export function registerClientRoutes(app: FastifyInstance, ctx: ServerContext): void {
  void app.register(
    async (scope) => {
      requireSession(scope, ctx);
      registerConversationRoutes(scope, ctx);
      registerMessageRoutes(scope, ctx);
      registerActionRoutes(scope, ctx);
      registerTeamRoutes(scope, ctx);
      registerStreamTicketRoute(scope, ctx);
      registerReadMarkerRoute(scope, ctx);
      registerRosterRoutes(scope, ctx);
    },
    { prefix: '/api/client' },
  );
}
