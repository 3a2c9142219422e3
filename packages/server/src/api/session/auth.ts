import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.js';
import { sessionUser } from '../../core/queries/sessions.js';
import type { UsersTable } from '../../store/schema.js';
import { ApiError } from '../errors.js';
import { sessionToken } from './sessionToken.js';

/**
 * The person a request is signed in as (session token as Bearer, else the session cookie), or
 * NotSignedIn. Cross-site requests with the cookie were refused before (security/crossSite.ts).
 */
export async function signedInPerson(ctx: ServerContext, request: FastifyRequest): Promise<UsersTable> {
  return personOfSession(ctx, sessionToken(request));
}

/** The person a session token is of, or NotSignedIn (no token, an unknown, expired or signed-out one). */
export async function personOfSession(ctx: ServerContext, token: string | undefined): Promise<UsersTable> {
  const person = token ? await sessionUser(ctx.db, token, ctx.now()) : undefined;
  if (!person) throw new ApiError('NotSignedIn');
  return person;
}
