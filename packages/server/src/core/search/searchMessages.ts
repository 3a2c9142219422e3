import type { SearchQuery } from '@aviary/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db, Store } from '../../store/store.js';
import type { ResolvedFilters } from './searchFilters.js';
import { drainSearchQueue } from './searchQueue.js';
import { ftsAll, ftsAny, isPartialWord, MATCH_END, MATCH_START, tsAll, tsAny, tsTerm } from './textMatch.js';

export interface SearchPage {
  reader: UsersTable;
  query: SearchQuery;
  filters: ResolvedFilters;
  /** Only messages older than this uid. */
  before?: string;
  limit: number;
}

export interface FoundMessage {
  row: MessagesTable;
  /** The text around the matches, marked with MATCH_START/MATCH_END; null when the query had no words. */
  snippet: string | null;
  /** Whether the reader is a member of the message's channel (false for a direct chat). */
  member: boolean;
}

/** Words of context a snippet keeps around the matches. */
const SNIPPET_WORDS = 24;

const isPerson = (user: UsersTable): boolean => user.email !== null && user.bot_app_id === null;

/**
 * The chats a reader searches, now: their direct chats, the channels they are in, and (for people
 * other than guests, who may join one themselves: core/policies/channels.ts) their team's public
 * channels. Membership is read at search time, so a channel left is out at once (unless public).
 */
function scope(reader: UsersTable): RawBuilder<unknown> {
  const joinable = isPerson(reader) && reader.role !== 'guest';
  return sql`(m.chat_key like ${`${reader.id}|%`} or m.chat_key like ${`%|${reader.id}`}
    or m.chat_key in (select channel_id from channel_members where user_id = ${reader.id})
    ${joinable ? sql`or m.chat_key in (select id from channels where team_id = ${reader.team_id} and type = 'public')` : sql``})`;
}

/** The messages the reader may find: their team's, in their scope, and not hidden by visibleTo (as core/queries/messages.ts). */
export function readableBy(reader: UsersTable): RawBuilder<unknown>[] {
  return [
    sql`m.team_id = ${reader.team_id}`,
    scope(reader),
    sql`(m.visible_to is null or m.from_user_id = ${reader.id} or m.visible_to like ${`%${JSON.stringify(reader.id)}%`})`,
  ];
}

/** The filters in:, from: and the days, on the messages `m`. */
export function placeAndTimeFilters(filters: ResolvedFilters): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  if (filters.chatKeys) conditions.push(sql`m.chat_key in (${sql.join(filters.chatKeys)})`);
  if (filters.fromIds) conditions.push(sql`m.from_user_id in (${sql.join(filters.fromIds)})`);
  if (filters.since !== undefined) conditions.push(sql`m.timestamp >= ${filters.since}`);
  if (filters.until !== undefined) conditions.push(sql`m.timestamp < ${filters.until}`);
  return conditions;
}

/** The conditions both dialects share: team, scope, visibleTo, filters, page. */
function commonConditions(page: SearchPage, hasLink: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const { reader, filters } = page;
  const conditions = [...readableBy(reader), ...placeAndTimeFilters(filters)];
  if (filters.hasLink) conditions.push(hasLink);
  // A message carries files when its `files` is set (migration 0024, docs/reference/files.md).
  if (filters.hasFile) conditions.push(sql`m.files is not null`);
  if (page.before !== undefined) conditions.push(sql`m.uid < ${page.before}`);
  return conditions;
}

/** Whether the reader is a member of the message's channel (false for a direct chat). */
export const memberColumn = (reader: UsersTable) =>
  sql`exists (select 1 from channel_members cm where cm.channel_id = m.chat_key and cm.user_id = ${reader.id})`;

async function searchSqlite(db: Db, page: SearchPage): Promise<FoundMessage[]> {
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
  // The matches are found once, first: left to itself, the planner may walk a chat's messages and ask
  // the index about each one, and FTS5 answers each such question by running the whole query again.
  const rows = await sql<MessagesTable & { search_row: number; member: number }>`
    with found (id) as materialized (select rowid from message_search where message_search match ${match})
    select m.*, r.id as search_row, ${memberColumn(page.reader)} as member
    from found
    join message_search_rows r on r.id = found.id
    join messages m on m.uid = r.uid
    where ${where}
    order by m.uid desc limit ${page.limit}`.execute(db);
  if (rows.rows.length === 0) return [];
  // Snippets for the page's rows only: worked out for every match, they would cost more than the search.
  const snippets = await sql<{ rowid: number; snippet: string }>`
    select rowid, snippet(message_search, 0, ${MATCH_START}, ${MATCH_END}, '…', ${SNIPPET_WORDS}) as snippet
    from message_search where message_search match ${match} and rowid in (${sql.join(rows.rows.map((row) => row.search_row))})`.execute(db);
  const byRow = new Map(snippets.rows.map((row) => [Number(row.rowid), row.snippet]));
  return rows.rows.map(({ search_row, ...row }) => found({ ...row, snippet: byRow.get(Number(search_row)) ?? null }));
}

async function searchPostgres(db: Db, page: SearchPage): Promise<FoundMessage[]> {
  const { include, exclude } = page.query;
  const language = await db.selectFrom('teams').select('search_language').where('id', '=', page.reader.team_id).executeTakeFirstOrThrow();
  const tsquery = (text: string) => sql`to_tsquery(${language.search_language}::regconfig, search_fold(${text}))`;
  const conditions = commonConditions(page, sql`m.text ~* 'https?://'`);
  for (const term of include) {
    const words = sql`s.document @@ ${tsquery(tsTerm(term))}`;
    conditions.push(isPartialWord(term) ? sql`(${words} or s.folded like '%' || search_fold(${term.tokens[0]}) || '%')` : words);
  }
  if (exclude.length > 0) conditions.push(sql`not (s.document @@ ${tsquery(tsAny(exclude))})`);
  const joinIndex = include.length + exclude.length > 0 ? sql`join message_search s on s.uid = m.uid` : sql``;
  const headline =
    include.length > 0
      ? sql`ts_headline(${language.search_language}::regconfig, page.text, ${tsquery(tsAll(include))},
          ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=${SNIPPET_WORDS}, MinWords=${SNIPPET_WORDS / 2}, HighlightAll=false`})`
      : sql`null`;
  // The headline is worked out for the page's rows only, after the limit.
  const rows = await sql<MessagesTable & { snippet: string | null; member: boolean }>`
    select page.*, ${headline} as snippet from (
      select m.*, ${memberColumn(page.reader)} as member from messages m ${joinIndex}
      where ${sql.join(conditions, sql` and `)}
      order by m.uid desc limit ${page.limit}
    ) page order by page.uid desc`.execute(db);
  return rows.rows.map(found);
}

function found(row: MessagesTable & { snippet: string | null; member: number | boolean }): FoundMessage {
  const { snippet, member, ...message } = row;
  return { row: message, snippet, member: Boolean(member) };
}

/** One page of the reader's messages matching the query, newest first. */
export function searchMessages(store: Pick<Store, 'db' | 'dialect'>, page: SearchPage): Promise<FoundMessage[]> {
  return store.dialect === 'postgres' ? searchPostgres(store.db, page) : searchSqlite(store.db, page);
}
