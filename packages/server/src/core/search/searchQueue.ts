import { sql, SqliteAdapter } from 'kysely';
import type { Db } from '../../store/store.js';

/**
 * The SQLite search index's queue (migration 0029, docs/search.md "How the index is kept"): a new
 * message's uid is queued by the insert trigger in the send's transaction; this indexes the queued
 * messages later, many to a transaction, which costs FTS5 far less than one small segment a send.
 *
 * A queued message the index already holds (an edit indexed it, or `aviary search reindex` did) is
 * skipped, and one deleted meanwhile is gone from `messages`, so it is skipped too: the queue only ever
 * adds what the index lacks. On PostgreSQL there is no queue (the trigger indexes in the transaction).
 */

/** Messages indexed in one transaction of the drain. */
export const DRAIN_BATCH = 1000;

const isSqlite = (db: Db): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** Indexes up to `batch` queued messages in one transaction; returns how many queue entries it took. */
async function drainBatch(db: Db, batch: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ last: number | null; taken: number }>`
      select max(id) as last, count(*) as taken from (select id from message_search_queue order by id limit ${batch})`.execute(tx);
    const last = rows[0]?.last;
    if (last === null || last === undefined) return 0;
    const before = await sql<{ id: number | null }>`select max(id) as id from message_search_rows`.execute(tx);
    await sql`insert into message_search_rows (uid)
      select q.uid from message_search_queue q join messages m on m.uid = q.uid
      where q.id <= ${last} and not exists (select 1 from message_search_rows r where r.uid = q.uid)
      group by q.uid order by min(q.id)`.execute(tx);
    await sql`insert into message_search (rowid, text)
      select r.id, m.text from message_search_rows r join messages m on m.uid = r.uid where r.id > ${before.rows[0]?.id ?? 0}`.execute(tx);
    await sql`delete from message_search_queue where id <= ${last}`.execute(tx);
    return Number(rows[0].taken);
  });
}

/**
 * Indexes every message queued when it is called (and any queued meanwhile), in batches; returns how
 * many queue entries it took. Cheap when the queue is empty: one read, no transaction.
 */
export async function drainSearchQueue(db: Db, batch = DRAIN_BATCH): Promise<number> {
  if (!isSqlite(db)) return 0;
  let drained = 0;
  for (;;) {
    const waiting = await sql<{ id: number }>`select id from message_search_queue limit 1`.execute(db);
    if (waiting.rows.length === 0) return drained;
    const taken = await drainBatch(db, batch);
    drained += taken;
    if (taken < batch) return drained;
  }
}
