import { buildFullOpenApiDocument, buildOpenApiDocument, type OpenApiOptions } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/**
 * GET /v1/openapi.json: the method API described from its definitions in @aviary/protocol. The document
 * cannot change while the server runs, so it is built and serialized once. A static route, it wins over
 * the dispatcher's /v1/:method.
 */
export function registerOpenApiRoute(app: FastifyInstance, ctx: ServerContext): void {
  const body = JSON.stringify(buildOpenApiDocument(undefined, documentOptions(ctx)));
  app.get('/v1/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}

/** GET /openapi.json: every surface in one document, the client and session routes beside the methods. */
export function registerFullOpenApiRoute(app: FastifyInstance, ctx: ServerContext): void {
  const body = JSON.stringify(buildFullOpenApiDocument(documentOptions(ctx)));
  app.get('/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}

const documentOptions = (ctx: ServerContext): OpenApiOptions => (ctx.config.publicUrl ? { serverUrl: ctx.config.publicUrl } : {});
