import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * SQLite only: a new message is indexed for search after its transaction, not in it (docs/search.md
 * "How the index is kept"). Indexing it in the send's own transaction cost a send about half its
 * throughput (BENCHMARKS.md "Search"): FTS5 writes a segment for every small transaction and merges them.
 *
 * - `message_search_queue`: the insert trigger now only notes the new message's uid here; the process
 *   that writes drains it in batches of up to a thousand messages a transaction (core/search/searchQueue.ts)
 *   a moment later, and every search drains it first, so a search finds every message sent before it.
 * - Edits and deletes keep changing the index in their own transaction (0015's triggers, unchanged): a
 *   message still queued when edited is indexed with its new text there and then, and the drain skips it.
 *
 * PostgreSQL keeps indexing in the message's transaction: its GIN index already defers its own work
 * (fastupdate's pending list), and there several processes write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create table message_search_queue (id integer primary key, uid text not null)`.execute(db);
  await sql`drop trigger message_search_insert`.execute(db);
  await sql`create trigger message_search_insert after insert on messages begin
    insert into message_search_queue (uid) values (new.uid);
  end`.execute(db);
}
