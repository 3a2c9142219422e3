import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { commonConditions, found, memberColumn, SNIPPET_WORDS, type FoundMessage, type SearchPage } from './searchScope.js';
import { DEFAULT_SLICING, widenUntilComplete } from './searchSlices.js';
import { isPartialWord, MATCH_END, MATCH_START, tsAll, tsAny, tsTerm } from './textMatch.js';

/**
 * The uid `depth` messages older than `before` (of the one chat an `in:` filter names, else of all
 * chats), newest first: the oldest message of the slice; undefined when there are fewer.
 */
async function sliceStart(db: Db, page: SearchPage, depth: number): Promise<string | undefined> {
  const chatKeys = page.filters.chatKeys;
  const { rows } = await sql<{ uid: string }>`select uid from messages m
    where ${chatKeys?.length === 1 ? sql`m.chat_key = ${chatKeys[0]}` : sql`true`} ${page.before === undefined ? sql`` : sql`and m.uid < ${page.before}`}
    order by m.uid desc offset ${depth - 1} limit 1`.execute(db);
  return rows[0]?.uid;
}

/**
 * The uids of the messages holding the words, when there are fewer than `few` in the whole index (then
 * the page is searched among them, at once); undefined when there are more.
 */
async function fewMatches(db: Db, textConditions: RawBuilder<unknown>[], few: number): Promise<string[] | undefined> {
  const { rows } = await sql<{ uid: string }>`select s.uid from message_search s where ${sql.join(textConditions, sql` and `)} limit ${few}`.execute(db);
  return rows.length < few ? rows.map((row) => row.uid) : undefined;
}

/** How a query's words are matched: as words and word beginnings (the tsvector), or also inside longer words (trigrams). */
type Matching = 'words' | 'infix';

export async function searchPostgres(db: Db, page: SearchPage): Promise<FoundMessage[]> {
  const { include } = page.query;
  const language = (await db.selectFrom('teams').select('search_language').where('id', '=', page.reader.team_id).executeTakeFirstOrThrow()).search_language;
  const byWords = await searchPage(db, page, language, 'words');
  if (byWords.length > 0 || !include.some(isPartialWord)) return byWords;
  // A bare word is looked for inside longer words only when the query finds nothing as words, whatever
  // the page (docs/search.md): the trigram index is the costliest part of a search on a large history.
  // A later page that is empty as words is the end of the query's matches when it found any as words.
  if (page.before !== undefined && (await searchPage(db, { ...page, before: undefined, limit: 1 }, language, 'words', false)).length > 0) return [];
  return searchPage(db, page, language, 'infix');
}

/** One page of the query's matches, newest first, its words matched as `matching` says; snippets only when `snippets`. */
async function searchPage(db: Db, page: SearchPage, language: string, matching: Matching, snippets = true): Promise<FoundMessage[]> {
  const { include, exclude } = page.query;
  const tsquery = (text: string) => sql`to_tsquery(${language}::regconfig, search_fold(${text}))`;
  const textConditions = include.map((term) => {
    const words = sql`s.document @@ ${tsquery(tsTerm(term))}`;
    return matching === 'infix' && isPartialWord(term) ? sql`(${words} or s.folded like '%' || search_fold(${term.tokens[0]}) || '%')` : words;
  });
  const conditions = commonConditions(page, sql`m.text ~* 'https?://'`);
  if (exclude.length > 0) conditions.push(sql`not (s.document @@ ${tsquery(tsAny(exclude))})`);
  const joinIndex = include.length + exclude.length > 0 ? sql`join message_search s on s.uid = m.uid` : sql``;
  const headline =
    include.length > 0 && snippets
      ? sql`ts_headline(${language}::regconfig, page.text, ${tsquery(tsAll(include))},
          ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, HighlightAll=false`})`
      : sql`null`;
  // The slice's bound on both tables: the planner does not carry a range across the join by itself.
  const inSlice = (start: string | undefined, matched: RawBuilder<unknown>[] = textConditions) => {
    const bounded: RawBuilder<unknown>[] = start === undefined ? [] : [sql`m.uid >= ${start}`, ...(include.length + exclude.length > 0 ? [sql`s.uid >= ${start}`] : [])];
    // The headline is worked out for the page's rows only, after the limit.
    return sql<MessagesTable & { snippet: string | null; member: boolean }>`
      select page.*, ${headline} as snippet from (
        select m.*, ${memberColumn(page.reader)} as member from messages m ${joinIndex}
        where ${sql.join([...conditions, ...matched, ...bounded], sql` and `)}
        order by m.uid desc limit ${page.limit}
      ) page order by page.uid desc`.execute(db);
  };
  const slicing = page.slicing ?? DEFAULT_SLICING;
  if (include.length === 0) return (await inSlice(undefined)).rows.map(found);
  const few = await fewMatches(db, textConditions, slicing.few);
  if (few !== undefined) return few.length === 0 ? [] : (await inSlice(undefined, [sql`m.uid = any(${few})`])).rows.map(found);
  // A slice holds every message from its start up to the page's bound: a full page in it is the page.
  const rows = await widenUntilComplete(slicing, async (depth) => {
    const start = depth === undefined ? undefined : await sliceStart(db, page, depth);
    const { rows } = await inSlice(start);
    return { rows, complete: start === undefined || rows.length >= page.limit };
  });
  return rows.map(found);
}
