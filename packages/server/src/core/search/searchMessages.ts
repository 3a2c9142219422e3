import type { Store } from '../../store/store.js';
import { drainSearchQueue } from './searchQueue.js';
import { searchPostgres } from './searchPostgres.js';
import type { FoundMessage, SearchPage } from './searchScope.js';
import { searchSqlite } from './searchSqlite.js';

export type { FoundMessage, SearchPage } from './searchScope.js';

/** One page of the reader's messages matching the query, newest first (each dialect walks its index in slices: searchSlices.ts). */
export async function searchMessages(store: Pick<Store, 'db' | 'dialect'>, page: SearchPage): Promise<FoundMessage[]> {
  // Messages sent before this search and still queued for the index are indexed first (searchQueue.ts).
  await drainSearchQueue(store.db);
  return store.dialect === 'postgres' ? searchPostgres(store.db, page) : searchSqlite(store.db, page);
}
