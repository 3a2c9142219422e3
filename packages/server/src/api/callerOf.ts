import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { authenticate, type Caller } from './caller.js';
import { ApiError, missingParameter } from './errors.js';
import type { RawParams } from './params.js';
import { personOfSession } from './session/auth.js';
import { bearerToken, cookieToken } from './session/sessionToken.js';

/**
 * A session token (`newSecret('as_s_')`): its prefix and 43 base64url characters, 48 in all. Every token
 * of an app is 46 characters, so no token of an app has this shape.
 */
const SESSION_TOKEN = /^as_s_[A-Za-z0-9_-]{43}$/;

/**
 * Who calls a `/v1` method (docs/reference/methods.md "Who may call"): the token of `Authorization:
 * Bearer` or of the `token` parameter (an app's, or as Bearer a person's session token), else the session
 * cookie, which `guardCookie` lets through only from this server's own pages (CSRF).
 */
export async function callerOf(ctx: ServerContext, request: FastifyRequest, raw: RawParams, guardCookie: (request: FastifyRequest) => void): Promise<Caller> {
  const bearer = bearerToken(request);
  const token = bearer ?? raw.token;
  if (token === undefined || token === '' || token === null) {
    const cookie = cookieToken(request);
    if (cookie === undefined) throw missingParameter('token');
    guardCookie(request);
    return { kind: 'person', user: await personOfSession(ctx, cookie), appId: null };
  }
  if (typeof token !== 'string') throw new ApiError('InvalidToken', 'The token must be a string.');
  if (bearer !== undefined && SESSION_TOKEN.test(bearer)) return { kind: 'person', user: await personOfSession(ctx, bearer), appId: null };
  return authenticate(ctx.store, token);
}
