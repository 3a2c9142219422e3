import type { Db, Tx } from '../store.js';
import { lockRows } from './locks.js';

/**
 * PostgreSQL: locks the files' rows until the transaction ends, in the order of their ids, before the
 * change reads them, so that a file is never deleted from under a message being sent with it. `delete`
 * (files.delete, and the unlinking of a deleted message's files) waits for the sends under way, which
 * then carry the file (and keep it); `attach` (a send) waits for a deletion under way and then finds the
 * file gone, or still there and no longer carried. Sends do not wait for each other. A change that also
 * locks messages locks them first (store/rows/messages.ts, lockMessages). SQLite needs nothing: its one
 * writer has changes take turns.
 */
export async function lockFiles(tx: Db | Tx, ids: readonly string[], lock: 'delete' | 'attach'): Promise<void> {
  await lockRows(tx, 'files', 'id', ids, lock === 'delete' ? 'update' : 'key share');
}
