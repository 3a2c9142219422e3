import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { sessionUser, signIn, signOut } from '../../core/commands/sessions.js';
import { presentUser } from '../../core/presenters/users.js';
import type { UsersTable } from '../../store/schema.js';
import { ApiError, invalidParameter, missingParameter } from '../errors.js';
import { clientAddressResolver } from '../security/clientAddress.js';
import { enforceSessionRateLimits } from './routeLimits.js';
import { startSignInAttempt } from './signInLimits.js';
import { sessionCookie, sessionToken } from './sessionToken.js';

export { SESSION_COOKIE, sessionToken } from './sessionToken.js';

/** The longest email (RFC 5321's limit): a longer one is refused before it becomes part of a limiter key. */
const MAX_EMAIL_LENGTH = 254;
const TEAM_ID = /^t:[a-z2-7]{16}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, set by `requireSession` on the client and developer APIs. */
    person?: UsersTable;
  }
}

/**
 * Adds a preHandler hook to a route scope: every route in it needs a signed-in person, and counts
 * against that person's rate limits (routeLimits.ts). Cross-site requests were refused before
 * (security/crossSite.ts).
 */
export function requireSession(scope: FastifyInstance, ctx: ServerContext): void {
  scope.addHook('preHandler', async (request, reply) => {
    const token = sessionToken(request);
    const person = token ? await sessionUser(ctx.db, token, ctx.now()) : undefined;
    if (!person) throw new ApiError('NotSignedIn');
    await enforceSessionRateLimits(ctx, request, reply, person);
    request.person = person;
  });
}

export function signedInPerson(request: FastifyRequest): UsersTable {
  if (!request.person) throw new ApiError('NotSignedIn');
  return request.person;
}

/**
 * POST /api/session {email, password, teamId?} → {sessionToken, user} (and the cookie). An email with
 * accounts in several teams whose password opens more than one gets TeamRequired with those teams, and
 * signs in again naming one. GET /api/session → {user, team}: who the session belongs to (the web client
 * asks on load; the cookie is HttpOnly). DELETE /api/session signs out.
 */
export function registerSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const clientAddress = clientAddressResolver(ctx.config.trustProxy);

  app.post('/api/session', async (request, reply) => {
    const input = signInInput(request.body);
    const attempt = await startSignInAttempt(ctx, input.email, clientAddress(request));
    const result = await signIn(ctx.db, { ...input, now: ctx.now() }).catch(async (error: unknown) => {
      await attempt.forgive();
      throw error;
    });
    if (result.outcome === 'wrongCredentials') throw new ApiError('InvalidCredentials');
    await attempt.forgive();
    if (result.outcome === 'chooseTeam') {
      throw new ApiError('TeamRequired', 'This email and password open accounts in several teams; sign in again with teamId set to one of teams.', { teams: result.teams });
    }
    reply.header('set-cookie', sessionCookie(ctx.config, result.sessionToken));
    return { sessionToken: result.sessionToken, user: presentUser(result.user) };
  });

  app.get('/api/session', async (request, reply) => {
    const token = sessionToken(request);
    const person = token ? await sessionUser(ctx.db, token, ctx.now()) : undefined;
    if (!person) throw new ApiError('NotSignedIn');
    await enforceSessionRateLimits(ctx, request, reply, person);
    const team = await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', '=', person.team_id).executeTakeFirstOrThrow();
    return { user: presentUser(person), team };
  });

  app.delete('/api/session', async (request, reply) => {
    const token = sessionToken(request);
    if (token) await signOut(ctx.db, token);
    reply.header('set-cookie', sessionCookie(ctx.config, ''));
    return {};
  });
}

function signInInput(body: unknown): { email: string; password: string; teamId?: string } {
  const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  for (const name of ['email', 'password']) {
    if (typeof fields[name] !== 'string' || fields[name] === '') throw missingParameter(name);
  }
  const email = (fields.email as string).trim().toLowerCase();
  const password = fields.password as string;
  if (email.length > MAX_EMAIL_LENGTH || !email.includes('@')) throw invalidParameter('email', `email must be an email address of at most ${MAX_EMAIL_LENGTH} characters.`);
  const teamId = fields.teamId;
  if (teamId === undefined || teamId === null || teamId === '') return { email, password };
  if (typeof teamId !== 'string' || !TEAM_ID.test(teamId)) throw invalidParameter('teamId', 'teamId must be a team id (t: followed by 16 base32 characters), as given by TeamRequired.');
  return { email, password, teamId };
}
