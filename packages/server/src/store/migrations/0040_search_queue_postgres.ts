import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * PostgreSQL: a new message is indexed for search after its transaction, as on SQLite since 0029
 * (docs/search.md "How the index is kept"). Writing its row of `message_search`, and so its entries of
 * both GIN indexes, in the send's own transaction cost a send about a fifth more CPU (BENCHMARKS.md
 * "Search"); the same rows written a thousand to a statement cost less than half as much a message.
 *
 * - `message_search_queue`, as on SQLite: the insert trigger only notes the new message's uid; every
 *   process drains the queue in batches a moment later (core/search/searchQueue.ts), and every search
 *   drains it first, so a search finds every message whose send returned.
 * - Edits and deletes keep changing the index in their own transaction: `message_search_write` (0036's
 *   function, unchanged) now fires on them alone.
 *
 * Every message already stored is indexed (the trigger did it), so the queue starts empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql`create table message_search_queue (id bigserial primary key, uid text not null)`.execute(db);
  await sql`create function message_search_enqueue() returns trigger language plpgsql as $$
    begin
      insert into message_search_queue (uid) values (new.uid);
      return new;
    end $$`.execute(db);
  await sql`drop trigger message_search_write on messages`.execute(db);
  await sql`create trigger message_search_write after delete or update of text, chat_key on messages
    for each row execute function message_search_write()`.execute(db);
  await sql`create trigger message_search_insert after insert on messages
    for each row execute function message_search_enqueue()`.execute(db);
}
