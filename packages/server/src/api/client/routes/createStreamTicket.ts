import { clientRoutes } from '@aviary/protocol';
import { issueStreamTicket } from '../../../core/commands/streamTickets.js';
import { hashToken } from '../../../store/ids.js';
import { ApiError } from '../../errors.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The ticket stands for the session that asked for it: the stream it opens ends with that session. */
export default defineRouteHandler(clientRoutes.createStreamTicket, async (_params, person, ctx, exchange) => {
  const token = exchange.sessionToken();
  if (token === undefined) throw new ApiError('NotSignedIn');
  return issueStreamTicket(ctx.db, { userId: person.id, sessionHash: hashToken(token), now: ctx.now(), lifetimeMs: ctx.config.stream.ticketLifetimeMs });
});
