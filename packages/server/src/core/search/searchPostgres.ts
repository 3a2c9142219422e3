import type { SearchTerm } from '@aviary/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { commonConditions, found, memberColumn, SNIPPET_WORDS, type FoundMessage, type SearchPage } from './searchScope.js';
import { DEFAULT_SLICING, widenUntilComplete } from './searchSlices.js';
import { isPartialWord, MATCH_END, MATCH_START, tsAll, tsAny, tsTerm, tsTokens } from './textMatch.js';

/** The tsquery of a text, in the reader's team's text search configuration. */
type TsQuery = (text: string) => RawBuilder<unknown>;

const tsQueryIn =
  (language: string): TsQuery =>
  (text) =>
    sql`to_tsquery(${language}::regconfig, search_fold(${text}))`;

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
 * The uids of the messages that match `conditions`, when there are fewer than `few` in the whole index;
 * undefined when there are more. Words are matched by the index's entries alone (each match's row is
 * read for its uid); a phrase's order is checked on the row of each message holding its words.
 */
async function fewMatches(db: Db, conditions: RawBuilder<unknown>[], few: number): Promise<string[] | undefined> {
  const { rows } = await sql<{ uid: string }>`select s.uid from message_search s where ${sql.join(conditions, sql` and `)} limit ${few}`.execute(db);
  return rows.length < few ? rows.map((row) => row.uid) : undefined;
}

/**
 * How many rows of the index the planner expects `conditions` to find, from its statistics of the
 * words (`ANALYZE`, which autovacuum keeps up to date): no row is read. Within a factor of two or so for
 * a phrase's words on the bench's corpus (docs/search.md).
 */
async function expectedMatches(db: Db, conditions: RawBuilder<unknown>[]): Promise<number> {
  type Plan = [{ Plan: { 'Plan Rows': number } }];
  const { rows } = await sql<{ 'QUERY PLAN': Plan }>`explain (format json) select 1 from message_search s where ${sql.join(conditions, sql` and `)}`.execute(db);
  return rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
}

/** A word's matches counted before its search for one match, at most (foundNowhereAsWords). */
const FEW_FOR_ONE = 100;

/**
 * The bare words (three letters or more) of the query that no message the reader may find holds as a
 * word or a word's beginning, under the query's filters and whatever the page: those are also looked
 * for inside longer words, through the trigram index (docs/search.md). Asked only when a search as
 * words found nothing, so it costs the searches that find something nothing. Each word is a search of
 * its own for one match, its matches counted up to FEW_FOR_ONE only: the count reads each match's row,
 * the costliest part for a common word, which the first slice finds among the newest messages.
 */
async function foundNowhereAsWords(db: Db, page: SearchPage, language: string): Promise<SearchTerm[]> {
  const slicing = page.slicing ?? DEFAULT_SLICING;
  const oneMatch = { ...slicing, few: Math.min(slicing.few, FEW_FOR_ONE) };
  const nowhere: SearchTerm[] = [];
  for (const term of page.query.include.filter(isPartialWord)) {
    const alone = { ...page, query: { ...page.query, include: [term], exclude: [] }, before: undefined, limit: 1, slicing: oneMatch };
    if ((await searchPage(db, alone, language, [])).length === 0) nowhere.push(term);
  }
  return nowhere;
}

export async function searchPostgres(db: Db, page: SearchPage): Promise<FoundMessage[]> {
  const language = (await db.selectFrom('teams').select('search_language').where('id', '=', page.reader.team_id).executeTakeFirstOrThrow()).search_language;
  const byWords = await searchPage(db, page, language, []);
  if (byWords.length > 0) return byWords;
  // A query that finds something as words finds nothing more inside words: the trigram index is the
  // costliest part of a search on a large history, and asked only for words that are nowhere words.
  const inside = await foundNowhereAsWords(db, page, language);
  return inside.length === 0 ? [] : searchPage(db, page, language, inside);
}

/** A search of the whole history first finds its matches when there are fewer than this in the index. */
const WHOLE_HISTORY_FEW = 10_000;
/** One page of the query's matches, newest first; the terms `inside` also found inside longer words. */
async function searchPage(db: Db, page: SearchPage, language: string, inside: SearchTerm[]): Promise<FoundMessage[]> {
  const { include, exclude } = page.query;
  const tsquery = tsQueryIn(language);
  const chatKeys = page.filters.chatKeys;
  // The index is on (chat, words) (migration 0035): for one chat, it finds that chat's matches alone.
  const inChats = chatKeys === undefined || include.length === 0 ? [] : [sql`s.chat_key in (${sql.join(chatKeys)})`];
  const matching = (words: (term: SearchTerm) => string) =>
    include.map((term) => {
      const asWords = sql`s.document @@ ${tsquery(words(term))}`;
      return inside.includes(term) ? sql`(${asWords} or s.folded like '%' || search_fold(${term.tokens[0]}) || '%')` : asWords;
    });
  const textConditions = [...inChats, ...matching(tsTerm)];
  const conditions = commonConditions(page, sql`m.text ~* 'https?://'`);
  if (exclude.length > 0) conditions.push(sql`not (s.document @@ ${tsquery(tsAny(exclude))})`);
  const joinIndex = include.length + exclude.length > 0 ? sql`join message_search s on s.uid = m.uid` : sql``;
  const headline =
    include.length > 0
      ? sql`ts_headline(${language}::regconfig, page.text, ${tsquery(tsAll(include))},
          ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, HighlightAll=false`})`
      : sql`null`;
  // A slice: the messages from `start` on. The word index is asked for the slice's matches alone, by
  // its buckets (migration 0037), and the messages are looked up from them: joined the other way, the
  // planner walked the slice's messages newest first to meet the matches (30 ms for 128,000 messages,
  // where this takes 8). Not `s.uid >= start` in the index's question: the planner would add a bitmap
  // of the slice's every row to its answer (12 ms for 128,000); the messages' own bound is exact.
  const inSlice = (start: string | undefined, matched: RawBuilder<unknown>[] = textConditions) => {
    const inIndex = (from: string) => sql`select s.uid from message_search s where ${sql.join([sql`s.bucket >= left(${from}, 6)`, ...matched], sql` and `)}`;
    const bounded: RawBuilder<unknown>[] = start === undefined ? [] : [sql`m.uid >= ${start}`, sql`m.uid = any(array(${inIndex(start)}))`];
    // The headline is worked out for the page's rows only, after the limit.
    return sql<MessagesTable & { snippet: string | null; member: boolean }>`
      select page.*, ${headline} as snippet from (
        select m.*, ${memberColumn(page.reader)} as member from messages m ${joinIndex}
        where ${sql.join([...conditions, ...matched, ...bounded], sql` and `)}
        order by m.uid desc limit ${page.limit}
      ) page order by page.uid desc`.execute(db);
  };
  const among = async (uids: string[]) => (uids.length === 0 ? [] : (await inSlice(undefined, [sql`m.uid = any(${uids})`, ...textConditions])).rows);
  const slicing = page.slicing ?? DEFAULT_SLICING;
  if (include.length === 0) return (await inSlice(undefined)).rows.map(found);
  const candidates = [...inChats, ...matching(tsTokens)];
  const phrase = include.some((term) => term.tokens.length > 1);
  if (!phrase) {
    const few = slicing.few > 0 ? await fewMatches(db, candidates, slicing.few) : undefined;
    if (few !== undefined) return (await among(few)).map(found);
  }
  // A phrase's order is checked on each candidate's row (its words in any order): counting them would
  // read the rows a search of the whole history reads. So the planner's estimate decides. A phrase with
  // few candidates has few matches, which the slices would look for in vain before the whole history
  // ("velmié a": 1,870 candidates, 138 matches, the newest 21 beyond the largest slice): it is searched
  // whole at once (a walk whose largest slice is 0).
  const wholeAtOnce = phrase && slicing.phraseFew > 0 && (await expectedMatches(db, candidates)) < slicing.phraseFew;
  // A slice holds every message from its start up to the page's bound: a full page in it is the page.
  const rows = await widenUntilComplete(wholeAtOnce ? { ...slicing, largest: 0 } : slicing, async (depth) => {
    const start = depth === undefined ? undefined : await sliceStart(db, page, depth);
    if (start === undefined) {
      // The whole history: the matches found first, when there are not too many. Asked for them in uid
      // order, the planner walks every message from the newest, checking each, as if they were common:
      // a phrase of common words ("risa be": 91 matches, 1,330 messages with both words) took 100 ms so.
      const matches = await fewMatches(db, textConditions, WHOLE_HISTORY_FEW);
      if (matches !== undefined) return { rows: await among(matches), complete: true };
    }
    const { rows } = await inSlice(start);
    return { rows, complete: start === undefined || rows.length >= page.limit };
  });
  return rows.map(found);
}
