import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { Database, MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * A message restricted by `visibleTo` is seen by its sender and the users listed, by no one else.
 * `visible_to` is a JSON array of user ids, and user ids hold no LIKE wildcards, so matching the quoted
 * id finds exactly the listed users while the filter stays inside the indexed scan of one chat.
 */
export function visibleTo(readerId: string, listed = listing(readerId)) {
  return (eb: ExpressionBuilder<Database, 'messages'>) =>
    eb.or([
      eb('visible_to', 'is', null),
      eb('from_user_id', '=', readerId),
      eb('visible_to', 'like', listed),
    ]);
}

/** The LIKE pattern of a `visible_to` that lists the reader (visibleTo); a value of its own for a query compiled once. */
export const listing = (readerId: string): string => `%${JSON.stringify(readerId)}%`;

/** A chat's history leaves out thread replies not also sent to it (threads are read with `thread`). */
export const inChatHistory = (eb: ExpressionBuilder<Database, 'messages'>) => eb.or([eb('thread_parent', 'is', null), eb('also_in_channel', '=', 1)]);

/**
 * The messages of one chat with the given uids that the reader may see, in the order requested
 * (each once). Uids of other chats, unknown uids and hidden messages are skipped.
 */
export async function findMessagesByUids(db: Db, chatKey: string, readerId: string, uids: readonly string[]): Promise<MessagesTable[]> {
  return inOrderAsked(uids, (wanted) => messagesByUidsQuery(db, chatKey, readerId, wanted).execute());
}

/** The messages with these uids, each once, in the order requested, of those `fetch` finds. */
export async function inOrderAsked<T extends { uid: string }>(uids: readonly string[], fetch: (wanted: string[]) => Promise<T[]>): Promise<T[]> {
  const wanted = [...new Set(uids)];
  if (wanted.length === 0) return [];
  const byUid = new Map((await fetch(wanted)).map((row) => [row.uid, row]));
  return wanted.flatMap((uid) => byUid.get(uid) ?? []);
}

/** What findMessagesByUids reads (unordered), for chat.fetchMessages to add what it shows with each message. */
export function messagesByUidsQuery(db: Db, chatKey: string, readerId: string, uids: readonly string[]): MessagesQuery {
  return db.selectFrom('messages').selectAll('messages').where('messages.chat_key', '=', chatKey).where('uid', 'in', [...uids]).where(visibleTo(readerId));
}

/**
 * A query of whole messages. Its columns are the messages' own (`messages.*`) and its conditions name
 * `messages.chat_key`, so that a caller may join the tables that say more about each message.
 */
export type MessagesQuery = SelectQueryBuilder<Database, 'messages', MessagesTable>;

export interface HistoryPage {
  /** Only messages older than this uid. */
  before?: string;
  /** Only messages newer than this uid; the page is then the ones right after it. */
  after?: string;
  limit: number;
  /**
   * The replies of this message's thread instead of the chat's history (which leaves out replies not also
   * sent to it); or of the thread a threadRootQuery finds in the same statement.
   */
  thread?: string | ThreadRootQuery;
}

/**
 * One page of a chat's history by keyset on the (chat_key, uid) index, so a page costs the same on a
 * chat of a million messages as on one of ten (never OFFSET). Without `after` the page holds the newest
 * messages before `before` (or the newest of all); with `after` it holds the oldest ones after it, so
 * paging forward from the newest uid seen leaves no gap. Exported for the test that checks the plan.
 */
export function historyPageQuery(db: Db, chatKey: string, readerId: string, page: HistoryPage, listed = listing(readerId)): MessagesQuery {
  let query = db.selectFrom('messages').selectAll('messages');
  query =
    page.thread !== undefined
      ? query.where('thread_parent', '=', page.thread).where('messages.chat_key', '=', chatKey)
      : query.where('messages.chat_key', '=', chatKey).where(inChatHistory);
  if (page.before !== undefined) query = query.where('uid', '<', page.before);
  if (page.after !== undefined) query = query.where('uid', '>', page.after);
  return query
    .where(visibleTo(readerId, listed))
    .orderBy('uid', page.after !== undefined ? 'asc' : 'desc')
    .limit(page.limit);
}

/**
 * The root of the thread of message `uid` (itself, or its root for a reply) when the reader sees it in
 * this chat, else no row: threadToRead's answer as a subquery, for one statement to find a thread and read
 * a page of it.
 */
export function threadRootQuery(db: Db, chatKey: string, readerId: string, uid: string, listed = listing(readerId)) {
  return db
    .selectFrom('messages')
    .select((eb) => eb.fn.coalesce('thread_parent', 'uid').as('root'))
    .where('messages.chat_key', '=', chatKey)
    .where('uid', '=', uid)
    .where(visibleTo(readerId, listed));
}

export type ThreadRootQuery = ReturnType<typeof threadRootQuery>;

/** A page of history (see historyPageQuery), always newest first. */
export async function fetchHistoryPage(db: Db, chatKey: string, readerId: string, page: HistoryPage): Promise<MessagesTable[]> {
  const rows = await historyPageQuery(db, chatKey, readerId, page).execute();
  return page.after !== undefined ? rows.reverse() : rows;
}

export interface ClientIdKey {
  senderId: string;
  /** Client ids are chosen by apps, so two apps acting for one user must not collide on "1". */
  appId: string | null;
  clientId: string;
  /** Only messages sent after this time count as earlier ones. */
  sentAfter: number;
}

/** The first message the sender sent through the app with this client id after `sentAfter`, if any. */
export async function findMessageByClientId(db: Db, key: ClientIdKey): Promise<MessagesTable | undefined> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('from_user_id', '=', key.senderId)
    .where('client_id', '=', key.clientId)
    .where((eb) => (key.appId === null ? eb('app_id', 'is', null) : eb('app_id', '=', key.appId)))
    .where('timestamp', '>', key.sentAfter)
    .orderBy('uid', 'asc')
    .limit(1)
    .executeTakeFirst();
}
