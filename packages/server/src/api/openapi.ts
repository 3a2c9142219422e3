import { buildOpenApiDocument } from '@aviary/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

/**
 * GET /v1/openapi.json: the method API described from its definitions in @aviary/protocol. The document
 * cannot change while the server runs, so it is built and serialized once. A static route, it wins over
 * the dispatcher's /v1/:method.
 */
export function registerOpenApiRoute(app: FastifyInstance, ctx: ServerContext): void {
  const body = JSON.stringify(buildOpenApiDocument(undefined, ctx.config.publicUrl ? { serverUrl: ctx.config.publicUrl } : {}));
  app.get('/v1/openapi.json', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
}
