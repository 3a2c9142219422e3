import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { requireSession } from '../session/auth.js';
import { registerActionRoutes } from './actions.js';
import { registerConversationRoutes } from './conversations.js';
import { registerMessageRoutes } from './messages.js';
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
      registerRosterRoutes(scope, ctx);
    },
    { prefix: '/api/client' },
  );
}
