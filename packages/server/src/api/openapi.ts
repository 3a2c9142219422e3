import { buildFullOpenApiDocument, type OpenApiOptions } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/**
 * GET /openapi.json, and GET /v1/openapi.json as its alias: every endpoint in one document, generated
 * from the definitions in @aviary/protocol (the methods, the routes that keep a path, the events as
 * webhooks). The document cannot change while the server runs, so it is built and serialized once.
 * Static routes, they win over the dispatcher's /v1/:method.
 */
export function registerOpenApiRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const body = JSON.stringify(buildFullOpenApiDocument(ctx.config.publicUrl ? ({ serverUrl: ctx.config.publicUrl } satisfies OpenApiOptions) : {}));
  for (const path of ['/openapi.json', '/v1/openapi.json']) app.get(path, (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
