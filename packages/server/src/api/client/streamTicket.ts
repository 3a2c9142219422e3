import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { issueStreamTicket } from '../../core/commands/streamTickets.js';
import { hashToken } from '../../store/ids.js';
import { ApiError } from '../errors.js';
import { sessionToken, signedInPerson } from '../session/auth.js';

/**
 * POST /api/client/stream/ticket → {ticket, expiresAt}: a single-use ticket that opens the stream
 * (`GET /api/stream?ticket=`) as the signed-in person, for clients that cannot send the session with the
 * WebSocket request. It expires after `stream.ticketLifetimeMs` and dies with the session.
 */
export function registerStreamTicketRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/stream/ticket', async (request) => {
    const person = signedInPerson(request);
    const token = sessionToken(request);
    if (token === undefined) throw new ApiError('NotSignedIn');
    return issueStreamTicket(ctx.db, { userId: person.id, sessionHash: hashToken(token), now: ctx.now(), lifetimeMs: ctx.config.stream.ticketLifetimeMs });
  });
}
