import type { SearchQuery, SearchTerm } from '@aviary/protocol';
import { sql, type RawBuilder } from 'kysely';
import type { FilesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { ResolvedFilters } from './searchFilters.js';
import { memberColumn, placeAndTimeFilters, readableBy } from './searchScope.js';

export interface FileSearchPage {
  reader: UsersTable;
  query: SearchQuery;
  filters: ResolvedFilters;
  /** Only files after this one in the order of the results (the previous page's last). */
  after?: { messageUid: string; fileId: string };
  limit: number;
}

export interface FoundFile {
  file: FilesTable;
  /** The newest message carrying the file that the reader can see. */
  message: { uid: string; chat_key: string; to_id: string; from_user_id: string };
  /** Whether the reader is a member of that message's channel (false for a direct chat). */
  member: boolean;
}

/** A term is in a name when each of its words is, anywhere, whatever its case (ASCII case on SQLite). */
function nameHas(term: SearchTerm): RawBuilder<unknown> {
  // searchTokens keeps letters, digits and marks only: no LIKE wildcard reaches the pattern.
  return sql.join(
    term.tokens.map((token) => sql`lower(f.name) like ${`%${token}%`}`),
    sql` and `,
  );
}

/**
 * search.files: the files carried by the messages the reader may find with search.messages (the same
 * scope and visibleTo, and the same filters), whose names hold the query's words. A file carried by
 * several messages is found once, with the newest of them the reader sees; ordered by that message,
 * newest first, then by file id (the files of one message).
 */
export async function searchFiles(db: Db, page: FileSearchPage): Promise<FoundFile[]> {
  const { include, exclude } = page.query;
  const conditions = [
    ...readableBy(page.reader),
    ...placeAndTimeFilters(page.filters),
    sql`f.state = 'stored'`,
    ...include.map(nameHas),
    ...exclude.map((term) => sql`not (${nameHas(term)})`),
  ];
  const newest = sql`max(mf.message_uid)`;
  const after = page.after
    ? sql`having ${newest} < ${page.after.messageUid} or (${newest} = ${page.after.messageUid} and mf.file_id < ${page.after.fileId})`
    : sql``;
  const rows = await sql<FilesTable & { message_uid: string; chat_key: string; to_id: string; from_user_id: string; member: number | boolean }>`
    select f.*, found.message_uid, m.chat_key, m.to_id, m.from_user_id, ${memberColumn(page.reader)} as member
    from (
      select mf.file_id, ${newest} as message_uid
      from message_files mf
      join messages m on m.uid = mf.message_uid
      join files f on f.id = mf.file_id
      where ${sql.join(conditions, sql` and `)}
      group by mf.file_id
      ${after}
      order by message_uid desc, mf.file_id desc
      limit ${page.limit}
    ) found
    join files f on f.id = found.file_id
    join messages m on m.uid = found.message_uid
    order by found.message_uid desc, found.file_id desc`.execute(db);
  return rows.rows.map(({ message_uid, chat_key, to_id, from_user_id, member, ...file }) => ({
    file,
    message: { uid: message_uid, chat_key, to_id, from_user_id },
    member: Boolean(member),
  }));
}
