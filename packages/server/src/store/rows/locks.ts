import { sql } from 'kysely';
import type { Db, Tx } from '../store.js';
import { isSqlite } from './streamEntries.js';

/** The tables whose rows a change locks, by the column it names them with. */
interface Lockable {
  messages: 'uid';
  files: 'id';
  apps: 'id';
  teams: 'id';
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
