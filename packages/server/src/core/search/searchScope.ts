import type { SearchQuery } from '@aviary/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { ResolvedFilters } from './searchFilters.js';
import type { Slicing } from './searchSlices.js';

/** What a message search is of, on either dialect: the reader, their query, and the page asked for. */
export interface SearchPage {
  reader: UsersTable;
  query: SearchQuery;
  filters: ResolvedFilters;
  /** Only messages older than this uid. */
  before?: string;
  limit: number;
  /** How the history is walked, newest first (searchSlices.ts): the default but in tests. */
  slicing?: Slicing;
}

export interface FoundMessage {
  row: MessagesTable;
  /** The text around the matches, marked with MATCH_START/MATCH_END; null when the query had no words. */
  snippet: string | null;
  /** Whether the reader is a member of the message's channel (false for a direct chat). */
  member: boolean;
}

/** Words of context a snippet keeps around the matches. */
export const SNIPPET_WORDS = 24;

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
export function commonConditions(page: SearchPage, hasLink: RawBuilder<unknown>): RawBuilder<unknown>[] {
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

export function found(row: MessagesTable & { snippet: string | null; member: number | boolean }): FoundMessage {
  const { snippet, member, ...message } = row;
  return { row: message, snippet, member: Boolean(member) };
}
