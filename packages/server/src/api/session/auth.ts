import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { sessionUser, signIn, signOut } from '../../core/commands/sessions.js';
import { presentUser } from '../../core/presenters/users.js';
import type { UsersTable } from '../../store/schema.js';
import { ApiError, missingParameter } from '../errors.js';
import { tooManyRequests } from '../rateLimits.js';

export const SESSION_COOKIE = 'aviary_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, set by `requireSession` on the client and developer APIs. */
    person?: UsersTable;
  }
}

/** The session token from `Authorization: Bearer` or the session cookie. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** Adds an onRequest hook to a route scope: every route in it needs a signed-in person. */
export function requireSession(scope: FastifyInstance, ctx: ServerContext): void {
  scope.addHook('preHandler', async (request) => {
    const token = sessionToken(request);
    const person = token ? await sessionUser(ctx.db, token, ctx.now()) : undefined;
    if (!person) throw new ApiError('NotSignedIn');
    request.person = person;
  });
}

export function signedInPerson(request: FastifyRequest): UsersTable {
  if (!request.person) throw new ApiError('NotSignedIn');
  return request.person;
}

/**
 * Failed sign-ins are limited per email and per client address (rateLimits.signInFailures and
 * signInFailuresPerAddress): an attempt takes a token from both buckets and gets them back (`forgive`)
 * unless the password was wrong, so only failures count. While either bucket is empty every attempt
 * gets TooManyRequests, the right password included, or guessing could simply go on.
 */
function startSignInAttempt(ctx: ServerContext, email: string, address: string): { forgive(): void } {
  const rules = ctx.config.rateLimits;
  const emailKey = `sign-in:email:${email}`;
  const addressKey = `sign-in:address:${address}`;
  const byEmail = ctx.rateLimits.take(emailKey, rules.signInFailures);
  if (!byEmail.allowed) throw tooManyRequests(byEmail, 'Too many failed sign-ins for this email.');
  const byAddress = ctx.rateLimits.take(addressKey, rules.signInFailuresPerAddress);
  if (!byAddress.allowed) {
    ctx.rateLimits.refund(emailKey);
    throw tooManyRequests(byAddress, 'Too many failed sign-ins from this address.');
  }
  return {
    forgive() {
      ctx.rateLimits.refund(emailKey);
      ctx.rateLimits.refund(addressKey);
    },
  };
}

/** POST /api/session {email, password} → {sessionToken, user} (and the cookie); DELETE /api/session signs out. */
export function registerSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/session', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const name of ['email', 'password']) {
      if (typeof body[name] !== 'string' || body[name] === '') throw missingParameter(name);
    }
    const email = (body.email as string).trim().toLowerCase();
    const attempt = startSignInAttempt(ctx, email, request.ip);
    const session = await signIn(ctx.db, { email, password: body.password as string, now: ctx.now() }).catch((error: unknown) => {
      attempt.forgive();
      throw error;
    });
    if (!session) throw new ApiError('InvalidCredentials');
    attempt.forgive();
    reply.header('set-cookie', `${SESSION_COOKIE}=${encodeURIComponent(session.sessionToken)}; Path=/; HttpOnly; SameSite=Lax`);
    return { sessionToken: session.sessionToken, user: presentUser(session.user) };
  });
  app.delete('/api/session', async (request, reply) => {
    const token = sessionToken(request);
    if (token) await signOut(ctx.db, token);
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    return {};
  });
}
