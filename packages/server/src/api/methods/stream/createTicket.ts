import { api } from '@aviary/protocol';
import { issueStreamTicket } from '../../../core/commands/streamTickets.js';
import { defineHandler } from '../../handler.js';

/** The ticket stands for the session that asked for it: the stream it opens ends with that session. */
export default defineHandler(api.stream.createTicket, async (_params, { user, sessionHash }, ctx) =>
  issueStreamTicket(ctx, { person: user, sessionHash }, { lifetimeMs: ctx.config.stream.ticketLifetimeMs }),
);
