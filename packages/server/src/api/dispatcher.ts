import { methodsByName, type MethodDefinition } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../context.js';
import { authenticate } from './caller.js';
import { ApiError, missingParameter } from './errors.js';
import type { MethodHandler } from './handler.js';
import { flockAliasTarget, flockNamedCall } from './flockNames.js';
import { handlers } from './methods/index.js';
import { decodeParams, type RawParams } from './params.js';
import { bearerToken } from './session/sessionToken.js';
import { enforceRateLimits } from './methodRateLimits.js';
import { checkResult } from './resultCheck.js';

/** Marks a body the server could not read (unsupported content type); reported after NoSuchMethod and 405. */
export const UNREADABLE_BODY = Symbol('unreadable body');

const handlersByName = new Map<string, MethodHandler>(handlers.map((handler) => [handler.method.name, handler as MethodHandler]));

export function findMethod(name: string): MethodDefinition | undefined {
  return methodsByName.get(name);
}

/**
 * `/v1/:method` — one fixed pipeline for every method:
 * decode → token → app disabled → rate limit → validate → handler → present.
 */
export function registerDispatcher(app: FastifyInstance, ctx: ServerContext): void {
  // No HEAD twin of the GET route: a HEAD would run the method (send the message) and drop the answer.
  app.route({ method: ['GET', 'POST'], url: '/v1/:method', exposeHeadRoute: false, handler: (request, reply) => dispatch(ctx, request, reply) });
  app.route({
    method: ['HEAD', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/:method',
    handler: async (request) => {
      requireMethod(request);
      throw notAllowed(request.method);
    },
  });
  app.options('/v1/:method', async (request, reply) => {
    requireMethod(request);
    return reply.code(204).header('allow', `${ALLOW}, OPTIONS`).send();
  });
}

const ALLOW = 'GET, POST';

const notAllowed = (verb: string): ApiError =>
  new ApiError('HTTPMethodNotAllowed', `${verb.slice(0, 20)} is not allowed; call methods with GET or POST.`, {}, { allow: ALLOW });

/**
 * Verbs no route is registered for (TRACE, PROPFIND, …) on the URL of a method get 405 like PUT, not
 * the not-found answer: the method exists, the verb is wrong (docs/reference/methods.md).
 */
export function methodNotAllowed(request: FastifyRequest): ApiError | undefined {
  const match = /^\/v1\/([^/?]+)(?:\?|$)/.exec(request.url);
  return match && handlersByName.has(match[1]) ? notAllowed(request.method) : undefined;
}

export function requireMethod(request: FastifyRequest): MethodHandler {
  const name = (request.params as { method?: string }).method ?? '';
  const handler = handlersByName.get(name) ?? handlersByName.get(flockAliasTarget(name) ?? '');
  if (!handler) throw new ApiError('NoSuchMethod', `There is no method named "${name.slice(0, 100)}".`);
  return handler;
}

async function dispatch(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const handler = requireMethod(request);
  const raw = readParams(request);
  const token = bearerToken(request) ?? raw.token;
  if (token === undefined || token === '' || token === null) throw missingParameter('token');
  if (typeof token !== 'string') throw new ApiError('InvalidToken', 'The token must be a string.');
  const caller = await authenticate(ctx.store, token);
  const flockNamed = await flockNamedCall(ctx.store.db, caller, (request.params as { method: string }).method, raw);
  const call = async (given: RawParams) => {
    await enforceRateLimits(ctx, handler.method, caller, given, reply);
    return handler.handle(decodeParams(handler.method.params, given), caller, forRequest(ctx, request.id));
  };
  const result = flockNamed ? await call(flockNamed.raw).catch((error: unknown) => Promise.reject(flockNamed.refusal(error))) : await call(raw);
  checkResult(ctx, handler.method.result, result, handler.method.name, request.id);
  return result;
}

function readParams(request: FastifyRequest): RawParams {
  const body = request.body as unknown;
  if (body === UNREADABLE_BODY) {
    throw new ApiError('InvalidRequestData', `The content type "${request.headers['content-type']}" is not supported; send application/x-www-form-urlencoded or application/json.`);
  }
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new ApiError('InvalidRequestData', 'A JSON body must be an object of named parameters.');
  }
  return { ...(request.query as RawParams), ...(body as RawParams | undefined) };
}
