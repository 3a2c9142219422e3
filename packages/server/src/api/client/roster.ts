import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../context.js';
import { presentPublicProfile } from '../../core/presenters/users.js';
import { listContacts } from '../../core/queries/roster.js';
import { signedInPerson } from '../session/auth.js';

/**
 * GET /api/client/roster — the people a person may write to and mention (roster.listContacts), with
 * `isBot` on bots: the web client's names for senders, the `@` picker and new direct chats.
 */
export function registerRosterRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/roster', async (request) => {
    const contacts = await listContacts(ctx.db, signedInPerson(request));
    return { people: contacts.map((row) => ({ ...presentPublicProfile(row), ...(row.isBot ? { isBot: true } : {}) })) };
  });
}
