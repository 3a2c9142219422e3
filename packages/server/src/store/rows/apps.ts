import type { AppsTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { isSqlite } from './streamEntries.js';

/**
 * The app's event subscriptions, if the app still exists. On PostgreSQL its row is then held (`for key
 * share`) until the caller's transaction ends, so that a row naming the app (an event, an install) is only
 * written for an app that stays: `deleteApp` (core/commands/apps.ts) locks the row first, so a writer that
 * comes during a deletion waits for its end and finds the app gone, and a deletion that comes later waits
 * for the writer's transaction, then deletes what it wrote with the rest. SQLite's one writer never
 * interleaves the two.
 */
export async function holdApp(db: Db | Tx, appId: string): Promise<Pick<AppsTable, 'event_subscriptions'> | undefined> {
  const query = db.selectFrom('apps').select('event_subscriptions').where('id', '=', appId);
  return (isSqlite(db) ? query : query.forKeyShare()).executeTakeFirst();
}

/**
 * The app's row, if it still exists, locked for a change of it (PostgreSQL: `for update`, in the same
 * read): changes of one app take turns, and one that comes after a deletion finds it gone.
 */
export async function lockAppRow(tx: Tx, appId: string): Promise<AppsTable | undefined> {
  const query = tx.selectFrom('apps').selectAll().where('id', '=', appId);
  return (isSqlite(tx) ? query : query.forUpdate()).executeTakeFirst();
}
