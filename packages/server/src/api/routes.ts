import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerClientAppRoutes } from './client/apps.js';
import { registerClientRoutes } from './client/index.js';
import { registerDeveloperRoutes } from './developer/routes.js';
import { registerSessionRoutes } from './session/auth.js';
import { registerWebClientRoutes } from './webClient.js';
import { registerWidgetScriptRoute } from './widgetScript.js';

/**
 * Everything served besides the /v1 method API: sessions for people, the client API (what the web client
 * calls), the developer API (the dashboard), /widget.js, the web client's page and assets. Each part registers its own routes here.
 */
export function registerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerSessionRoutes(app, ctx);
  registerClientRoutes(app, ctx);
  registerClientAppRoutes(app, ctx);
  registerDeveloperRoutes(app, ctx);
  registerWidgetScriptRoute(app);
  registerWebClientRoutes(app);
}
