import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { drainSearchQueue } from './searchQueue.js';
import { commonConditions, found, memberColumn, SNIPPET_WORDS, type FoundMessage, type SearchPage } from './searchScope.js';
import { DEFAULT_SLICING, widenUntilComplete, type SliceOutcome } from './searchSlices.js';
import { ftsAll, ftsAny, MATCH_END, MATCH_START } from './textMatch.js';

type Matched = MessagesTable & { search_row: number; member: number };

/**
 * The newest index row (message_search_rows.id) of a message older than `before` (or the newest of all):
 * where the slices start. The drain gives rows ids in the order messages were sent, so the rows just
 * below it are, but for a few, the newest messages before the page.
 */
async function startRow(db: Db, before: string | undefined): Promise<number | undefined> {
  const { rows } = await (before === undefined
    ? sql<{ id: number }>`select id from message_search_rows order by id desc limit 1`
    : sql<{ id: number }>`select id from message_search_rows where uid < ${before} order by uid desc limit 1`
  ).execute(db);
  return rows[0]?.id;
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
    // The matches are found once, first: left to itself, the planner may walk a chat's messages and ask
    // the index about each one, and FTS5 answers each such question by running the whole query again.
    sql<Matched>`
      with found (id) as materialized (
        select rowid from message_search where message_search match ${match} ${from === undefined ? sql`` : sql`and rowid >= ${from}`})
      select m.*, r.id as search_row, ${memberColumn(page.reader)} as member
      from found
      join message_search_rows r on r.id = found.id
      join messages m on m.uid = r.uid
      where ${where}
      order by m.uid desc limit ${page.limit}`.execute(db);
  const start = await startRow(db, page.before);
  if (start === undefined) return [];
  return widenUntilComplete(page.slicing ?? DEFAULT_SLICING, async (depth): Promise<SliceOutcome<Matched>> => {
    const from = depth === undefined || depth >= start ? undefined : start - depth + 1;
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
