import { api, parseSearchQuery } from '@aviary/protocol';
import { presentSearchMatch } from '../../../core/presenters/search.js';
import { resolveFilters } from '../../../core/search/searchFilters.js';
import { searchMessages } from '../../../core/search/searchMessages.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

const DEFAULT_SEARCH_PAGE = 20;

/** docs/search.md: what is searched, the syntax, and the paging (by the uid of the last match shown). */
export default defineHandler(api.search.messages, async (params, caller, ctx) => {
  const parsed = parseSearchQuery(params.query);
  if (!parsed.ok) throw invalidParameter('query', parsed.problem);
  const filters = await resolveFilters(ctx.db, caller.user, parsed.query);
  const limit = params.limit ?? DEFAULT_SEARCH_PAGE;
  const found = await searchMessages(ctx.store, { reader: caller.user, query: parsed.query, filters, before: params.cursor, limit: limit + 1 });
  const page = found.slice(0, limit);
  return {
    matches: page.map((match) => presentSearchMatch(match, caller.user.id)),
    ...(found.length > limit ? { nextCursor: page[page.length - 1].row.uid } : {}),
  };
});
