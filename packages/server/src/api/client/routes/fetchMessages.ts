import { clientRoutes } from '@aviary/protocol';
import { resolveReadableChat } from '../../../core/policies/chat.js';
import { presentMessage } from '../../../core/presenters/messages.js';
import { DEFAULT_PAGE_SIZE, fetchHistoryPage } from '../../../core/queries/messages.js';
import { defineRouteHandler } from '../../routeHandler.js';

/** A page of history, newest first, with the visibility rules of chat.fetchMessages. */
export default defineRouteHandler(clientRoutes.fetchMessages, async (params, person, ctx) => {
  const chatKey = await resolveReadableChat(ctx.db, person, params.chat);
  const rows = await fetchHistoryPage(ctx.db, chatKey, person.id, {
    before: params.before,
    after: params.after,
    limit: params.limit ?? DEFAULT_PAGE_SIZE,
  });
  return { messages: rows.map(presentMessage) };
});
