import type { ExpressionBuilder } from 'kysely';
import type { Database, MessagesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

export const DEFAULT_PAGE_SIZE = 50;

/**
 * A message restricted by `visibleTo` is seen by its sender and the users listed, by no one else.
 * `visible_to` is a JSON array of user ids, and user ids hold no LIKE wildcards, so matching the quoted
 * id finds exactly the listed users while the filter stays inside the indexed scan of one chat.
 */
export function visibleTo(readerId: string) {
  return (eb: ExpressionBuilder<Database, 'messages'>) =>
    eb.or([
      eb('visible_to', 'is', null),
      eb('from_user_id', '=', readerId),
      eb('visible_to', 'like', `%${JSON.stringify(readerId)}%`),
    ]);
}

/** A chat's history leaves out thread replies not also sent to it (threads are read with `thread`). */
export const inChatHistory = (eb: ExpressionBuilder<Database, 'messages'>) => eb.or([eb('thread_parent', 'is', null), eb('also_in_channel', '=', 1)]);

/**
 * The messages of one chat with the given uids that the reader may see, in the order requested
 * (each once). Uids of other chats, unknown uids and hidden messages are skipped.
 */
export async function findMessagesByUids(db: Db, chatKey: string, readerId: string, uids: readonly string[]): Promise<MessagesTable[]> {
  const wanted = [...new Set(uids)];
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('chat_key', '=', chatKey)
    .where('uid', 'in', wanted)
    .where(visibleTo(readerId))
    .execute();
  const byUid = new Map(rows.map((row) => [row.uid, row]));
  return wanted.flatMap((uid) => byUid.get(uid) ?? []);
}

export interface HistoryPage {
  /** Only messages older than this uid. */
  before?: string;
  /** Only messages newer than this uid; the page is then the ones right after it. */
  after?: string;
  limit: number;
  /** The replies of this message's thread instead of the chat's history (which leaves out replies not also sent to it). */
  thread?: string;
}

/**
 * One page of a chat's history by keyset on the (chat_key, uid) index, so a page costs the same on a
 * chat of a million messages as on one of ten (never OFFSET). Without `after` the page holds the newest
 * messages before `before` (or the newest of all); with `after` it holds the oldest ones after it, so
 * paging forward from the newest uid seen leaves no gap. Exported for the test that checks the plan.
 */
export function historyPageQuery(db: Db, chatKey: string, readerId: string, page: HistoryPage) {
  let query = db.selectFrom('messages').selectAll();
  query =
    page.thread !== undefined
      ? query.where('thread_parent', '=', page.thread).where('chat_key', '=', chatKey)
      : query.where('chat_key', '=', chatKey).where(inChatHistory);
  if (page.before !== undefined) query = query.where('uid', '<', page.before);
  if (page.after !== undefined) query = query.where('uid', '>', page.after);
  return query
    .where(visibleTo(readerId))
    .orderBy('uid', page.after !== undefined ? 'asc' : 'desc')
    .limit(page.limit);
}

/** A page of history (see historyPageQuery), always newest first. */
export async function fetchHistoryPage(db: Db, chatKey: string, readerId: string, page: HistoryPage): Promise<MessagesTable[]> {
  const rows = await historyPageQuery(db, chatKey, readerId, page).execute();
  return page.after !== undefined ? rows.reverse() : rows;
}

/**
 * The page around one message, newest first: it (when the reader sees it), up to half the page of newer
 * messages and the rest older, so a link to a message far back in history opens with it in view.
 */
export async function fetchPageAround(db: Db, chatKey: string, readerId: string, uid: string, limit: number, thread?: string): Promise<MessagesTable[]> {
  const newerCount = Math.floor((limit - 1) / 2);
  const [newer, itself] = await Promise.all([
    newerCount > 0 ? fetchHistoryPage(db, chatKey, readerId, { after: uid, limit: newerCount, thread }) : Promise.resolve([]),
    findMessagesByUids(db, chatKey, readerId, [uid]),
  ]);
  const older = await fetchHistoryPage(db, chatKey, readerId, { before: uid, limit: limit - newer.length - itself.length, thread });
  return [...newer, ...itself, ...older];
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
