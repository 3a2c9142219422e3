import { api } from '@aviary/protocol';
import { presentPublicProfile } from '../../../core/presenters/users.js';
import { listContacts } from '../../../core/queries/roster.js';
import { defineHandler } from '../../handler.js';

/**
 * To a token: its user's teammates and the bots of apps they installed. To a session: the web client's names
 * for senders, the `@` picker and new direct chats, so every active bot of the team, installed or not, marked isBot.
 */
export default defineHandler(api.roster.listContacts, async (_params, caller, ctx) => {
  if (caller.kind !== 'person') return (await listContacts(ctx.db, caller.user)).map((row) => presentPublicProfile(row, ctx.now()));
  const contacts = await listContacts(ctx.db, caller.user, 'team');
  return contacts.map((row) => ({ ...presentPublicProfile(row, ctx.now()), ...(row.isBot ? { isBot: true as const } : {}) }));
});
