import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { commonConditions, found, memberColumn, SNIPPET_WORDS, type FoundMessage, type SearchPage } from './searchScope.js';
import { DEFAULT_SLICING } from './searchSlices.js';
import { ftsAll, ftsAny, MATCH_END, MATCH_START } from './textMatch.js';

type Matched = MessagesTable & { search_row: number; member: number };

const snippet = sql`snippet(message_search, 0, ${MATCH_START}, ${MATCH_END}, '…', ${SNIPPET_WORDS}) as snippet`;

/**
 * Whether the index row `id` is late (migration 0034): given to a message older than one indexed before
 * it. A match the walk below left out (a row below the page's) that is newer than the page's oldest
 * match makes that match's row late; so when it is not, the page is the newest matches.
 */
async function isLate(db: Db, id: number): Promise<boolean> {
  const { rows } = await sql`select 1 from message_search_late where id = ${id}`.execute(db);
  return rows.length > 0;
}

/**
 * The page's matches, newest first (docs/search.md "How a search walks the index"). FTS5 hands its
 * matches out newest index row first, and the messages are looked up from them in that order (a cross
 * join keeps it) until the page is full: a query with many matches stops after a few. The drain gives
 * index rows ids in the order messages were sent, so those are the newest matches unless the oldest of
 * them has a late row (isLate): then, and when the slicing asks for no slices (tests), all the matches
 * are found and ordered by uid.
 */
async function newestMatches(db: Db, page: SearchPage, match: string, where: RawBuilder<unknown>): Promise<FoundMessage[]> {
  const from = sql`from message_search
    cross join message_search_rows r on r.id = message_search.rowid
    cross join messages m on m.uid = r.uid
    where message_search match ${match} and ${where}`;
  if ((page.slicing ?? DEFAULT_SLICING).largest > 0) {
    // The snippets are worked out for the rows kept only, as the walk stops at the page's last.
    const { rows } = await sql<Matched & { snippet: string }>`select m.*, r.id as search_row, ${memberColumn(page.reader)} as member, ${snippet}
      ${from} order by message_search.rowid desc limit ${page.limit}`.execute(db);
    const newest = rows.sort((a, b) => (a.uid < b.uid ? 1 : a.uid > b.uid ? -1 : 0));
    if (rows.length < page.limit || !(await isLate(db, newest[newest.length - 1].search_row))) return newest.map(({ search_row, ...row }) => found(row));
  }
  const { rows } = await sql<Matched>`select m.*, r.id as search_row, ${memberColumn(page.reader)} as member ${from} order by m.uid desc limit ${page.limit}`.execute(db);
  return withSnippets(db, match, rows);
}

/**
 * Snippets for the page's rows only: worked out for every match, they would cost more than the search.
 * FTS5 walks down from the newest of them until it has them all; given `rowid in (…)` it would run the
 * whole query again for each (the `+` keeps the list from it).
 */
async function withSnippets(db: Db, match: string, rows: Matched[]): Promise<FoundMessage[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.search_row));
  const snippets = await sql<{ rowid: number; snippet: string }>`select rowid, ${snippet} from message_search
    where message_search match ${match} and rowid <= ${Math.max(...ids)} and +rowid in (${sql.join(ids)})
    order by rowid desc limit ${ids.length}`.execute(db);
  const byRow = new Map(snippets.rows.map((row) => [Number(row.rowid), row.snippet]));
  return rows.map(({ search_row, ...row }) => found({ ...row, snippet: byRow.get(Number(search_row)) ?? null }));
}

export async function searchSqlite(db: Db, page: SearchPage): Promise<FoundMessage[]> {
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
  return newestMatches(db, page, ftsAll(include), where);
}
