import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../context.js';
import { checkResult } from './resultCheck.js';
import type { RouteExchange, RouteHandler } from './routeHandler.js';
import { decodeRouteParams, readRouteInput } from './routeInput.js';
import { clientAddressOf } from './callerOf.js';
import { requestCookie, sessionToken } from './session/sessionToken.js';

/**
 * The routes that keep a path of their own (signing in and out, deferred replies), each run through one
 * fixed pipeline: decode → validate → handler → check result → present. Anyone may call them; signing in
 * has its own limits (session/signInLimits.ts). What every request gets before (request ids, the
 * cross-site guard, the NUL guard, security headers) is in httpServer.ts and security/.
 */
export function registerRoutePipeline(app: FastifyInstance, ctx: ServerContext, handlers: readonly RouteHandler[]): void {
  for (const handler of handlers) {
    app.route({
      method: handler.route.verb,
      url: handler.route.path,
      handler: (request, reply) => runRoute(ctx, handler, request, reply),
    });
  }
}

async function runRoute(ctx: ServerContext, handler: RouteHandler, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { route } = handler;
  const params = decodeRouteParams(route, readRouteInput(route, request));
  const exchange: RouteExchange = {
    sessionToken: () => sessionToken(request),
    clientAddress: () => clientAddressOf(ctx.config)(request),
    userAgent: () => request.headers['user-agent'],
    cookie: (name) => requestCookie(request, name),
    setHeader: (name, value) => void reply.header(name, value),
  };
  const result = await handler.handle(params, forRequest(ctx, request.id), exchange);
  checkResult(ctx, route.result, result, route.name, request.id);
  return reply.send(result);
}
