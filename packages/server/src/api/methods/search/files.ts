import { api, parseSearchQuery } from '@aviary/protocol';
import { presentFileMatch } from '../../../core/presenters/search.js';
import { searchFiles } from '../../../core/search/searchFiles.js';
import { resolveFilters } from '../../../core/search/searchFilters.js';
import { invalidParameter } from '../../errors.js';
import { defineHandler } from '../../handler.js';

const DEFAULT_SEARCH_PAGE = 20;

/** docs/search.md "Files": search.messages' syntax, its words looked for in the files' names; paged by `<message uid>~<file id>`. */
export default defineHandler(api.search.files, async (params, caller, ctx) => {
  const parsed = parseSearchQuery(params.query);
  if (!parsed.ok) throw invalidParameter('query', parsed.problem);
  if (parsed.query.has.includes('link')) throw invalidParameter('query', 'has:link finds messages, not files: search.files takes in:, from:, before:, after: and on:.');
  const filters = await resolveFilters(ctx.db, caller.user, parsed.query);
  const limit = params.limit ?? DEFAULT_SEARCH_PAGE;
  const [messageUid, fileId] = params.cursor?.split('~') ?? [];
  const after = params.cursor === undefined ? undefined : { messageUid, fileId };
  const found = await searchFiles(ctx.db, { reader: caller.user, query: parsed.query, filters, after, limit: limit + 1 });
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    matches: page.map((match) => presentFileMatch(match, caller.user.id)),
    ...(found.length > limit ? { nextCursor: `${last.message.uid}~${last.file.id}` } : {}),
  };
});
