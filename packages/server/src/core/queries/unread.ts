import type { Db } from '../../store/store.js';
import { sql, type SqlBool } from 'kysely';
import { inChatHistory, visibleTo } from './messages.js';

/**
 * A message whose stored `mentions` (the column named) name the reader, or broadcast (@channel, @here)
 * to the members of its chat, which the reader reads.
 */
export const mentionsReader = (column: string, readerId: string) =>
  sql<SqlBool>`(${sql.ref(column)} like ${`%${JSON.stringify(readerId)}%`} or ${sql.ref(column)} like '%"@channel"%' or ${sql.ref(column)} like '%"@here"%')`;

/** Counting stops here: a chat with more unread messages than this shows this many. */
export const UNREAD_CAP = 1000;

export interface UnreadCounts {
  /** Messages from others after the read marker that the reader may see, up to UNREAD_CAP. */
  unread: number;
  /** Of those, the ones whose `mentions` name the reader. */
  mentions: number;
}

/**
 * How much of a chat the reader has not read: the messages after `readUpTo` (all of them without a
 * marker), from others, that the reader may see. One bounded scan of the chat's index.
 */
export async function unreadCounts(db: Db, chatKey: string, readerId: string, readUpTo: string | undefined): Promise<UnreadCounts> {
  let unread = db.selectFrom('messages').select('mentions').where('chat_key', '=', chatKey).where('from_user_id', '!=', readerId).where(inChatHistory);
  if (readUpTo !== undefined) unread = unread.where('uid', '>', readUpTo);
  const row = await db
    .selectFrom(unread.where(visibleTo(readerId)).limit(UNREAD_CAP).as('m'))
    .select((eb) => [
      eb.fn.countAll<number>().as('unread'),
      eb.fn.sum<number>(eb.case().when(mentionsReader('m.mentions', readerId)).then(1).else(0).end()).as('mentions'),
    ])
    .executeTakeFirstOrThrow();
  return { unread: Number(row.unread), mentions: Number(row.mentions ?? 0) };
}

/** The person's read markers, by chat key. */
export async function readMarkers(db: Db, userId: string): Promise<Map<string, string>> {
  const rows = await db.selectFrom('chat_reads').select(['chat_key', 'read_uid']).where('user_id', '=', userId).execute();
  return new Map(rows.map((row) => [row.chat_key, row.read_uid]));
}
