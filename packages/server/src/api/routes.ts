import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerAttachmentHtmlRoute } from './attachmentHtml.js';
import { routeHandlers } from './routeHandlers.js';
import { registerRoutePipeline } from './routePipeline.js';
import { registerSsoRoutes } from './sso/ssoRoutes.js';
import { registerStreamPlainRequestRoute } from './stream/plainRequest.js';
import { registerWebClientRoutes } from './webClient.js';
import { registerWebhookRoute } from './webhooks/hookRoute.js';
import { registerWidgetScriptRoute } from './widgetScript.js';
import { registerFileServeRoute } from './files/serveRoute.js';
import { registerUploadPartRoute } from './files/partRoute.js';
import { registerFileUploadRoute } from './files/uploadRoute.js';
import { registerPictureServeRoute } from './pictures/serveRoute.js';

/**
 * Everything served besides the /v1 method API: the routes of the protocol (signing in and out, deferred
 * replies), /widget.js, the web client's page and assets, html attachments' own documents, incoming
 * webhooks, single sign-on, file uploads and downloads, pictures, and what a plain GET of the stream gets
 * (its WebSocket upgrade is the HTTP server's, api/upgrade.ts).
 */
export function registerRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerRoutePipeline(app, ctx, routeHandlers);
  registerWidgetScriptRoute(app);
  registerStreamPlainRequestRoute(app);
  registerWebClientRoutes(app);
  registerAttachmentHtmlRoute(app, ctx);
  registerWebhookRoute(app, ctx);
  registerSsoRoutes(app, ctx);
  registerFileUploadRoute(app, ctx);
  registerUploadPartRoute(app, ctx);
  registerFileServeRoute(app, ctx);
  registerPictureServeRoute(app, ctx);
}
