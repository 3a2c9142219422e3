import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { drainSearchQueue } from './searchQueue.js';
import { commonConditions, found, memberColumn, SNIPPET_WORDS, type FoundMessage, type SearchPage } from './searchScope.js';
import { DEFAULT_SLICING, widenUntilComplete, type SliceOutcome } from './searchSlices.js';
import { ftsAll, ftsAny, MATCH_END, MATCH_START } from './textMatch.js';

type Matched = MessagesTable & { search_row: number; member: number };

/**
 * The first index row (message_search_rows.id) of a slice of `depth` messages older than `before`, of
 * the one chat an `in:` filter names (the row of its message `depth` places down) or of all chats (the
 * row `depth` below the newest one before the page): the drain gives rows ids in the order messages
 * were sent. Undefined when the slice would reach the start.
 */
async function sliceStart(db: Db, page: SearchPage, depth: number): Promise<number | undefined> {
  const chatKeys = page.filters.chatKeys;
  const older = page.before === undefined ? sql`` : sql`and uid < ${page.before}`;
  if (chatKeys?.length === 1) {
    const { rows } = await sql<{ id: number }>`select id from message_search_rows where uid =
      (select uid from messages where chat_key = ${chatKeys[0]} ${older} order by uid desc limit 1 offset ${depth - 1})`.execute(db);
    return rows[0]?.id;
  }
  const { rows } = await sql<{ id: number }>`select id from message_search_rows where true ${older} order by uid desc limit 1`.execute(db);
  const start = rows[0] === undefined ? 1 : rows[0].id - depth + 1;
  return start > 1 ? start : undefined;
}

/** Whether the query has fewer than `few` matches in the whole index: then it is searched whole, at once. */
async function fewMatches(db: Db, match: string, few: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from message_search where message_search match ${match} limit ${few})`.execute(db);
  return Number(rows[0].n) < few;
}

/**
 * Whether a message older than `before` and newer than `last` has an index row below `from`: one the
 * slice left out that could belong on the page (a message sent late, or indexed by `aviary search
 * reindex` after newer ones). It reads the uids between the two only, few when the page is full.
 */
async function missedBelow(db: Db, from: number, last: string, before: string | undefined): Promise<boolean> {
  const { rows } = await sql`select 1 from message_search_rows
    where uid > ${last} ${before === undefined ? sql`` : sql`and uid < ${before}`} and id < ${from} limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * The page's matches, newest first, in slices of index rows: the rows from `from` up (FTS5 reads only
 * that part of each word's list), the page found among them, then a check that no match was left out
 * below them (missedBelow). The whole index, without a bound, when the slice reaches its start.
 */
async function matchesInSlices(db: Db, page: SearchPage, match: string, where: RawBuilder<unknown>): Promise<Matched[]> {
  const inSlice = (from: number | undefined) =>
    // The matches are found once, first, and the messages looked up from them (a cross join keeps that
    // order): left to itself, the planner may walk a chat's messages and ask the index about each one.
    sql<Matched>`
      with found (id) as materialized (
        select rowid from message_search where message_search match ${match} ${from === undefined ? sql`` : sql`and rowid >= ${from}`})
      select m.*, r.id as search_row, ${memberColumn(page.reader)} as member
      from found
      cross join message_search_rows r on r.id = found.id
      cross join messages m on m.uid = r.uid
      where ${where}
      order by m.uid desc limit ${page.limit}`.execute(db);
  const slicing = page.slicing ?? DEFAULT_SLICING;
  if (await fewMatches(db, match, slicing.few)) return (await inSlice(undefined)).rows;
  return widenUntilComplete(slicing, async (depth): Promise<SliceOutcome<Matched>> => {
    const from = depth === undefined ? undefined : await sliceStart(db, page, depth);
    const { rows } = await inSlice(from);
    if (from === undefined) return { rows, complete: true };
    const last = rows.at(-1);
    return { rows, complete: rows.length >= page.limit && last !== undefined && !(await missedBelow(db, from, last.uid, page.before)) };
  });
}

export async function searchSqlite(db: Db, page: SearchPage): Promise<FoundMessage[]> {
  // Messages sent before this search and still queued for the index are indexed first (searchQueue.ts).
  await drainSearchQueue(db);
  const { include, exclude } = page.query;
  const conditions = commonConditions(page, sql`(m.text like '%http://%' or m.text like '%https://%')`);
  if (exclude.length > 0) {
    conditions.push(sql`m.uid not in (select r.uid from message_search join message_search_rows r on r.id = message_search.rowid
      where message_search match ${ftsAny(exclude)})`);
  }
  const where = sql.join(conditions, sql` and `);
  if (include.length === 0) {
    const rows = await sql<MessagesTable & { snippet: null; member: number }>`
      select m.*, null as snippet, ${memberColumn(page.reader)} as member from messages m
      where ${where} order by m.uid desc limit ${page.limit}`.execute(db);
    return rows.rows.map(found);
  }
  const match = ftsAll(include);
  const rows = await matchesInSlices(db, page, match, where);
  if (rows.length === 0) return [];
  // Snippets for the page's rows only: worked out for every match, they would cost more than the search.
  const snippets = await sql<{ rowid: number; snippet: string }>`
    select rowid, snippet(message_search, 0, ${MATCH_START}, ${MATCH_END}, '…', ${SNIPPET_WORDS}) as snippet
    from message_search where message_search match ${match} and rowid in (${sql.join(rows.map((row) => row.search_row))})`.execute(db);
  const byRow = new Map(snippets.rows.map((row) => [Number(row.rowid), row.snippet]));
  return rows.map(({ search_row, ...row }) => found({ ...row, snippet: byRow.get(Number(search_row)) ?? null }));
}
