import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { requireSession } from '../session/auth.js';
import { registerDeveloperAppRoutes } from './apps.js';
import { registerDeveloperEventRoutes } from './events.js';

/** The developer API (the dashboard's): /api/developer/*, for people signed in, JSON in and out. */
export function registerDeveloperRoutes(app: FastifyInstance, ctx: ServerContext): void {
  void app.register(
    async (scope) => {
      requireSession(scope, ctx);
      registerDeveloperAppRoutes(scope, ctx);
      registerDeveloperEventRoutes(scope, ctx);
    },
    { prefix: '/api/developer' },
  );
}
