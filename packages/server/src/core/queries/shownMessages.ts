import { sql } from 'kysely';
import { compiledOnce } from '../../store/compiledOnce.js';
import type { Db } from '../../store/store.js';
import type { MessagesTable, PinsTable, ThreadsTable } from '../../store/schema.js';
import { historyPageQuery, inOrderAsked, listing, messagesByUidsQuery, threadRootQuery, type MessagesQuery } from './messages.js';

/**
 * A message as chat.fetchMessages reads it: its row with, in the same statement, its pin and its thread's
 * summary (null when it has none) and whether anyone reacted to it (1, else null), so that a page of a hundred
 * messages costs one statement, and a second only when some of them carry reactions.
 */
export type ShownMessageRow = MessagesTable &
  { [K in 'pinned_by' | 'pinned_at']: PinsTable[K] | null } &
  { [K in 'reply_count' | 'last_reply_uid' | 'last_reply_at' | 'participants']: ThreadsTable[K] | null } & { reacted: number | null };

/** The pin and thread of each message by their primary keys, for the rows the query keeps only. */
function withWhatIsShown(query: MessagesQuery) {
  return query
    .leftJoin('pins', 'pins.message_uid', 'messages.uid')
    .leftJoin('threads', 'threads.parent_uid', 'messages.uid')
    .select((eb) => [
      'pins.pinned_by',
      'pins.pinned_at',
      'threads.reply_count',
      'threads.last_reply_uid',
      'threads.last_reply_at',
      'threads.participants',
      // A scalar subquery, looked up for each row the page keeps: PostgreSQL may hash a whole table for an EXISTS.
      eb.selectFrom('reactions').select(sql<number>`1`.as('one')).whereRef('reactions.message_uid', '=', 'messages.uid').limit(1).as('reacted'),
    ]);
}

/** A page of a chat's history or of a thread (historyPageQuery's), `thread` naming any message of the thread. */
export interface ShownPage {
  before?: string;
  after?: string;
  limit: number;
  thread?: string;
}

interface PageValues extends ShownPage {
  chatKey: string;
  readerId: string;
  listed: string;
}

/**
 * The statement of each kind of page (of a chat or a thread; newest, before or after a uid), built and
 * compiled once: Kysely's building and compiling of it cost more than SQLite takes to read it. A thread's
 * root is found in the same statement (threadRootQuery), so a page of a thread is one statement.
 */
const pageStatements = new Map<string, ReturnType<typeof compiledPage>>();

const compiledPage = () => compiledOnce((db, { chatKey, readerId, listed, ...page }: PageValues) => shownPageQuery(db, chatKey, readerId, page, listed));

/** What fetchShownPage runs; exported for the tests that check its plan. */
export function shownPageQuery(db: Db, chatKey: string, readerId: string, page: ShownPage, listed = listing(readerId)) {
  const thread = page.thread === undefined ? undefined : threadRootQuery(db, chatKey, readerId, page.thread, listed);
  return withWhatIsShown(historyPageQuery(db, chatKey, readerId, { before: page.before, after: page.after, limit: page.limit, thread }, listed));
}

/**
 * A page of history or of a thread (see historyPageQuery), newest first, each message with what is shown
 * beside it, in one statement. A thread no message of which the reader sees in this chat reads as an empty
 * page: the caller tells that from an empty thread (threadToRead).
 */
export async function fetchShownPage(db: Db, chatKey: string, readerId: string, page: ShownPage): Promise<ShownMessageRow[]> {
  const values: PageValues = { chatKey, readerId, listed: listing(readerId), limit: page.limit };
  // Only the values given: each kind of page has a statement of its own, which takes exactly those.
  if (page.before !== undefined) values.before = page.before;
  if (page.after !== undefined) values.after = page.after;
  if (page.thread !== undefined) values.thread = page.thread;
  const kind = `${page.thread === undefined ? 'chat' : 'thread'} ${page.before === undefined ? '' : 'before'} ${page.after === undefined ? '' : 'after'}`;
  let statement = pageStatements.get(kind);
  if (!statement) {
    statement = compiledPage();
    pageStatements.set(kind, statement);
  }
  const rows = (await statement(db, values)) as ShownMessageRow[];
  return page.after !== undefined ? rows.reverse() : rows;
}

/** findMessagesByUids's messages, each with what is shown beside it. */
export function findShownMessagesByUids(db: Db, chatKey: string, readerId: string, uids: readonly string[]): Promise<ShownMessageRow[]> {
  return inOrderAsked(uids, (wanted) => withWhatIsShown(messagesByUidsQuery(db, chatKey, readerId, wanted)).execute());
}

/**
 * The page around one message, newest first, each message with what is shown beside it: it (when the
 * reader sees it), up to half the page of newer messages and the rest older, so a link to a message far
 * back in history opens with it in view.
 */
export async function fetchShownPageAround(db: Db, chatKey: string, readerId: string, uid: string, limit: number, thread?: string): Promise<ShownMessageRow[]> {
  const newerCount = Math.floor((limit - 1) / 2);
  const [newer, itself] = await Promise.all([
    newerCount > 0 ? fetchShownPage(db, chatKey, readerId, { after: uid, limit: newerCount, thread }) : Promise.resolve([]),
    findShownMessagesByUids(db, chatKey, readerId, [uid]),
  ]);
  const older = await fetchShownPage(db, chatKey, readerId, { before: uid, limit: limit - newer.length - itself.length, thread });
  return [...newer, ...itself, ...older];
}
