import { clientRoutes } from '@aviary/protocol';
import { presentPublicProfile } from '../../../core/presenters/users.js';
import { listContacts } from '../../../core/queries/roster.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** The web client's names for senders, the `@` picker and new direct chats: every bot of the team is named, installed or not. */
export default defineRouteHandler(clientRoutes.listRoster, async (_params, person, ctx) => {
  const contacts = await listContacts(ctx.db, person, 'team');
  return { people: contacts.map((row) => ({ ...presentPublicProfile(row), ...(row.isBot ? { isBot: true as const } : {}) })) };
});
