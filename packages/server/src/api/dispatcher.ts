import { methodsByName, paramsFor, type CallerKind, type MethodDefinition } from '@aviary/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forRequest, type ServerContext } from '../context.js';
import type { AnonymousCaller, Caller } from './caller.js';
import { callerOf, clientAddressOf } from './callerOf.js';
import { ApiError } from './errors.js';
import type { MethodHandler } from './handler.js';
import { flockAliasTarget, flockNamedCall } from './flockNames.js';
import { handlers } from './methods/index.js';
import { decodeParams, refuseUndeclaredFields, type RawParams } from './params.js';
import { enforceRateLimits, takeRateLimits } from './methodRateLimits.js';
import { withIdempotencyKey } from './idempotencyKey.js';
import { checkResult } from './resultCheck.js';
import { cookieCallGuard } from './security/crossSite.js';

/** Marks a body the server could not read (unsupported content type); reported after NoSuchMethod and 405. */
export const UNREADABLE_BODY = Symbol('unreadable body');

/** The refusal of a body of a type the endpoint does not read (`accepted` names those it does), or of one with no type at all. */
export function unsupportedBody(request: FastifyRequest, accepted: string): ApiError {
  const type = request.headers['content-type'];
  const told = type === undefined ? 'The request has a body but no Content-Type header' : `The content type "${type.slice(0, 100)}" is not supported`;
  return new ApiError('InvalidRequestData', `${told}; send ${accepted}.`);
}

const handlersByName = new Map<string, MethodHandler>(handlers.map((handler) => [handler.method.name, handler as MethodHandler]));

export function findMethod(name: string): MethodDefinition | undefined {
  return methodsByName.get(name);
}

/**
 * `/v1/:method` — one fixed pipeline for every method, whoever calls it (an app's token, a person's session):
 * decode → caller (token or session; app disabled) → who may call → rate limit → validate → handler → present.
 */
export function registerDispatcher(app: FastifyInstance, ctx: ServerContext): void {
  const guardCookie = cookieCallGuard(ctx.config);
  // No HEAD twin of the GET route: a HEAD would run the method (send the message) and drop the answer.
  app.route({ method: ['GET', 'POST'], url: '/v1/:method', exposeHeadRoute: false, handler: (request, reply) => dispatch(ctx, request, reply, guardCookie) });
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

async function dispatch(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, guardCookie: (request: FastifyRequest) => void): Promise<unknown> {
  const handler = requireMethod(request);
  const { method } = handler;
  const raw = withIdempotencyKey(method, request, readParams(request));
  if (method.callers.includes('anyone')) return dispatchAnyone(ctx, handler, raw, request, reply);
  const caller = await callerOf(ctx, method, request, raw, guardCookie);
  const kind = callerKindOf(caller);
  if (!method.callers.includes(kind)) throw refusedCaller(method, kind);
  const flockNamed = await flockNamedCall(ctx.store.db, caller, (request.params as { method: string }).method, raw);
  const call = async (given: RawParams) => {
    await enforceRateLimits(ctx, method, caller, given, reply);
    return handler.handle(decodeMethodParams(method, kind, given), caller, forRequest(ctx, request.id));
  };
  const result = flockNamed ? await call(flockNamed.raw).catch((error: unknown) => Promise.reject(flockNamed.refusal(error))) : await call(raw);
  checkResult(ctx, method.result, result, method.name, request.id);
  return result;
}

/**
 * A method anyone may call takes no credential (one given is not looked at), and its budget is per
 * client address and method (docs/reference/methods.md "Who may call").
 */
async function dispatchAnyone(ctx: ServerContext, handler: MethodHandler, raw: RawParams, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const { method } = handler;
  const clientAddress = clientAddressOf(ctx.config)(request);
  const rule = ctx.config.rateLimits[method.rateClass];
  await takeRateLimits(ctx, reply, { key: `anyone:${clientAddress}:${method.name}`, rule, limited: `${method.name} is limited to ${rule.rate} calls per second per address.` });
  const { token: _credential, ...given } = raw;
  const caller: AnonymousCaller = { kind: 'anyone', clientAddress };
  const result = await handler.handle(decodeMethodParams(method, 'anyone', given), caller as never, forRequest(ctx, request.id));
  checkResult(ctx, method.result, result, method.name, request.id);
  return result;
}

const callerKindOf = (caller: Caller): CallerKind => (caller.kind === 'person' ? 'session' : caller.kind === 'appSecret' ? 'appSecret' : 'token');

const callerNames: Record<CallerKind, string> = { token: 'an app’s token', session: 'a person’s session', appSecret: 'an app’s secret', anyone: 'anyone' };

/** A session calling a method only apps call (callerOf refuses tokens to the methods only people call). */
function refusedCaller(method: MethodDefinition, kind: CallerKind): ApiError {
  const who = method.callers.map((caller) => callerNames[caller]).join(' or ');
  return new ApiError('PermissionDenied', `${method.name} is not called with ${callerNames[kind]}; call it with ${who}.`);
}

/** The caller's params; a closed shape (a person's, beside an app's) refuses a field it does not declare. */
function decodeMethodParams(method: MethodDefinition, kind: CallerKind, raw: RawParams): Record<string, unknown> {
  const params = paramsFor(method, kind);
  if (params.additionalProperties === false) {
    const { token: _credential, ...fields } = raw;
    refuseUndeclaredFields(Object.keys(params.properties), fields, `${method.name} for ${callerNames[kind]}`);
  }
  return decodeParams(params, raw);
}

function readParams(request: FastifyRequest): RawParams {
  const body = request.body as unknown;
  // A text/plain body arrives as a string (Fastify reads it): no more a body of named parameters than any other type.
  if (body === UNREADABLE_BODY || typeof body === 'string') throw unsupportedBody(request, 'application/x-www-form-urlencoded or application/json');
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new ApiError('InvalidRequestData', 'A JSON body must be an object of named parameters.');
  }
  return { ...(request.query as RawParams), ...(body as RawParams | undefined) };
}
