import type { MethodDefinition } from '@aviary/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { touchSession } from '../core/commands/accounts.js';
import { PERSONAL_TOKEN } from '../core/commands/personalTokens.js';
import { personOfPersonalToken } from '../core/queries/personalTokens.js';
import { hashToken } from '../store/ids.js';
import { appSecretCaller, looksLikeAppSecret } from './appSecretCaller.js';
import { authenticate, type Caller, type PersonCaller } from './caller.js';
import { ApiError, missingParameter } from './errors.js';
import type { RawParams } from './params.js';
import { clientAddressResolver } from './security/clientAddress.js';
import { personOfSession } from './session/auth.js';
import { bearerToken, cookieToken } from './session/sessionToken.js';

/**
 * A session token (`newSecret('as_s_')`): its prefix and 43 base64url characters, 48 in all. Every token
 * of an app is 46 characters, so no token of an app has this shape.
 */
const SESSION_TOKEN = /^as_s_[A-Za-z0-9_-]{43}$/;

/**
 * Who calls a `/v1` method (docs/reference/methods.md "Who may call"): the token of `Authorization:
 * Bearer` or of the `token` parameter (an app's, or as Bearer a person's session or personal token or, for a method
 * that takes it, the secret of the app `appId` names), else the session cookie, which `guardCookie` lets
 * through only from this server's own pages (CSRF). A method only a person calls answers NotSignedIn to
 * anything but a session, without looking an app's token up.
 */
export async function callerOf(
  ctx: ServerContext,
  method: MethodDefinition,
  request: FastifyRequest,
  raw: RawParams,
  guardCookie: (request: FastifyRequest) => void,
): Promise<Caller> {
  const bearer = bearerToken(request);
  const token = bearer ?? raw.token;
  const takesTokens = method.callers.includes('token');
  if (token === undefined || token === '' || token === null) {
    const cookie = cookieToken(request);
    if (cookie === undefined) throw takesTokens ? missingParameter('token') : notSignedIn(method);
    guardCookie(request);
    return signedIn(ctx, cookie, request);
  }
  if (bearer !== undefined && SESSION_TOKEN.test(bearer)) return signedIn(ctx, bearer, request);
  if (typeof token === 'string' && PERSONAL_TOKEN.test(token)) return byPersonalToken(ctx, method, bearer, request);
  if (bearer !== undefined && method.callers.includes('appSecret') && looksLikeAppSecret(bearer)) return appSecretCaller(ctx, raw.appId, bearer);
  if (!takesTokens) throw notSignedIn(method);
  if (typeof token !== 'string') throw new ApiError('InvalidToken', 'The token must be a string.');
  return authenticate(ctx.store, token);
}

/** Records the session's use (at most once a minute, sessions.list's "last seen") once it is known live. */
async function signedIn(ctx: ServerContext, sessionToken: string, request: FastifyRequest): Promise<PersonCaller> {
  const user = await personOfSession(ctx, sessionToken);
  const sessionHash = hashToken(sessionToken);
  await touchSession(ctx, { sessionHash }, {});
  return { kind: 'person', user, appId: null, sessionHash, via: 'session', clientAddress: clientAddressOf(ctx.config)(request) };
}

/**
 * A person's personal token acts as them on the methods a person calls, except those that manage how
 * they sign in (`sessionOnly`): only as Authorization: Bearer, never as a parameter (which ends up in
 * URLs and logs).
 */
async function byPersonalToken(ctx: ServerContext, method: MethodDefinition, bearer: string | undefined, request: FastifyRequest): Promise<PersonCaller> {
  if (bearer === undefined) throw new ApiError('InvalidToken', 'A personal token is sent as Authorization: Bearer, not as the token parameter.');
  if (method.sessionOnly) {
    throw new ApiError('PermissionDenied', `${method.name} manages how you sign in: call it from a signed-in session, not with a personal token.`);
  }
  const user = await personOfPersonalToken(ctx.db, bearer, ctx.now());
  return { kind: 'person', user, appId: null, sessionHash: hashToken(bearer), via: 'personalToken', clientAddress: clientAddressOf(ctx.config)(request) };
}

const resolvers = new WeakMap<ServerContext['config'], (request: FastifyRequest) => string>();

export function clientAddressOf(config: ServerContext['config']): (request: FastifyRequest) => string {
  let resolver = resolvers.get(config);
  if (!resolver) {
    resolver = clientAddressResolver(config.trustProxy);
    resolvers.set(config, resolver);
  }
  return resolver;
}

function notSignedIn(method: MethodDefinition): ApiError {
  const orSecret = method.callers.includes('appSecret') ? ', or by the app itself: its secret as Authorization: Bearer and its id as appId' : '';
  return new ApiError('NotSignedIn', `${method.name} is called by a signed-in person: send their session token as Authorization: Bearer, or the session cookie${orSecret}.`);
}
