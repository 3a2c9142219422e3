import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * SQLite only: `message_search_late` lists the index rows (message_search_rows) given to a message older
 * than one indexed before it, so that a search can walk the index newest row first and know when it has
 * found the newest matches (core/search/searchSqlite.ts, docs/search.md "How a search walks the index").
 *
 * Rows get ids in the order the drain or `aviary search reindex` indexes messages, which is the order
 * messages were sent but for a few (a message indexed after newer ones: the history `aviary search
 * reindex` adds, a message edited while still queued). A trigger notes each such row as it is written
 * (a seek in the uid index: none is newer, for a message in order) and forgets it with its row; the rows
 * already there are read once here, in id order.
 *
 * PostgreSQL walks uid ranges of its own index instead, and needs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await sql`create table message_search_late (id integer primary key, uid text not null)`.execute(db);
  await sql`insert into message_search_late (id, uid)
    select id, uid from (select id, uid, max(uid) over (order by id rows between unbounded preceding and 1 preceding) as newer from message_search_rows)
    where uid < newer`.execute(db);
  // Every row is inserted with the next id (no insert names one), so the rows before it are all the
  // others: the condition names the uid alone, which the planner answers by a seek in the uid index.
  // With `and id < new.id` beside it, SQLite walked the id range instead, every row for each insert.
  await sql`create trigger message_search_late_insert after insert on message_search_rows
    when exists (select 1 from message_search_rows where uid > new.uid) begin
    insert into message_search_late (id, uid) values (new.id, new.uid);
  end`.execute(db);
  await sql`create trigger message_search_late_delete after delete on message_search_rows begin
    delete from message_search_late where id = old.id;
  end`.execute(db);
}
