import { sql } from 'kysely';
import type { Db, Tx } from '../store.js';
import { isSqlite } from './streamEntries.js';

/** The tables whose rows a change locks, by the column it names them with. */
interface Lockable {
  channels: 'id';
  messages: 'uid';
  files: 'id';
  apps: 'id';
  teams: 'id';
  users: 'id';
  events: 'app_id';
}

/** PostgreSQL's row locks, from the strongest: `update` holds off every other; `key share` only deletions and key changes. */
export type RowLock = 'update' | 'no key update' | 'key share';

/**
 * PostgreSQL: locks the rows of `table` whose `column` is one of `values` until the transaction ends, in
 * the order of that column (so that two changes locking several rows never wait on each other in a
 * circle). SQLite needs nothing: its one writer has changes take turns.
 */
export async function lockRows<T extends keyof Lockable>(tx: Db | Tx, table: T, column: Lockable[T], values: readonly string[], lock: RowLock): Promise<void> {
  if (isSqlite(tx) || values.length === 0) return;
  await sql`select 1 from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(values)}) order by ${sql.ref(column)} for ${sql.raw(lock)}`.execute(tx);
}

/**
 * PostgreSQL: holds a lock on a name (a transaction-level advisory lock on its hash) until the
 * transaction ends, so that changes about one thing that has no row of its own to lock (a client id not
 * yet used, a chat's pins counted against their cap) take turns. A collision of two names' hashes only
 * has them take turns too. SQLite needs nothing, as above.
 */
export async function lockName(tx: Db | Tx, name: string): Promise<void> {
  if (isSqlite(tx)) return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}

/**
 * PostgreSQL: a channel's gate for posting. A send holds it shared from before it reads whether its sender
 * may post there (a member, the channel not archived) until it commits; a change that stops someone
 * posting (archiving, removing members) holds it alone, as its first lock. So such a change waits for the
 * sends under way, and a send that comes meanwhile waits, then reads the change. Sends to one channel
 * never wait on each other: the lock is in PostgreSQL's lock table, no row is written. SQLite needs
 * nothing, as above.
 */
export async function lockChannelPosting(tx: Db | Tx, channelId: string, lock: 'post' | 'close'): Promise<void> {
  if (isSqlite(tx)) return;
  const take = lock === 'post' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
  await sql`select ${take}(hashtextextended(${`posting:${channelId}`}, 0))`.execute(tx);
}
