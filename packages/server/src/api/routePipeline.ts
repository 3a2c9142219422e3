import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../context.js';
import { checkResult } from './resultCheck.js';
import type { RouteExchange, RouteHandler } from './routeHandler.js';
import { decodeRouteParams, readRouteInput } from './routeInput.js';
import { clientAddressResolver } from './security/clientAddress.js';
import { signedInPerson } from './session/auth.js';
import { enforceRouteRateLimits } from './session/routeLimits.js';
import { requestCookie, sessionToken } from './session/sessionToken.js';

/**
 * The routes that keep a path of their own (sessions, deferred replies), each run through one fixed
 * pipeline: authenticate → rate limit → decode → validate → handler → present. What every request gets
 * before (request ids, the cross-site guard, the NUL guard, security headers) is in httpServer.ts and
 * security/.
 */
export function registerRoutePipeline(app: FastifyInstance, ctx: ServerContext, handlers: readonly RouteHandler[]): void {
  const clientAddress = clientAddressResolver(ctx.config.trustProxy);
  for (const handler of handlers) {
    app.route({
      method: handler.route.verb,
      url: handler.route.path,
      handler: (request, reply) => runRoute(ctx, handler, request, reply, clientAddress),
    });
  }
}

async function runRoute(
  ctx: ServerContext,
  handler: RouteHandler,
  request: FastifyRequest,
  reply: FastifyReply,
  clientAddress: (request: FastifyRequest) => string,
): Promise<FastifyReply> {
  const { route } = handler;
  const person = route.callers[0] === 'session' ? await signedInPerson(ctx, request) : undefined;
  if (person) await enforceRouteRateLimits(ctx, reply, route, person);
  const params = decodeRouteParams(route, readRouteInput(route, request));
  const exchange: RouteExchange = {
    sessionToken: () => sessionToken(request),
    clientAddress: () => clientAddress(request),
    userAgent: () => request.headers['user-agent'],
    cookie: (name) => requestCookie(request, name),
    setHeader: (name, value) => void reply.header(name, value),
  };
  const result = await handler.handle(params, person, forRequest(ctx, request.id), exchange);
  checkResult(ctx, route.result, result, route.name, request.id);
  return reply.code(route.status ?? 200).send(result);
}
