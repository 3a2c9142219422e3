import { sql, type RawBuilder } from 'kysely';
import { lockName } from '../../store/rows/locks.js';
import { isSqlite } from '../../store/rows/streamEntries.js';
import type { Db } from '../../store/store.js';

/**
 * The search index's queue (migrations 0029 and 0040, docs/search.md "How the index is kept"): a new
 * message's uid is queued by the insert trigger in the send's transaction; this indexes the queued
 * messages later, many to a transaction, which costs either index far less than one message a
 * transaction (FTS5's segments, PostgreSQL's rows and GIN entries).
 *
 * A queued message the index already holds (an edit indexed it, or `aviary search reindex` did) is
 * skipped, and one deleted meanwhile is gone from `messages`, so it is skipped too: the queue only ever
 * adds what the index lacks.
 */

/** Messages indexed in one transaction of the drain. */
export const DRAIN_BATCH = 1000;

/** PostgreSQL: what drains take turns on, with `aviary search reindex`'s batches (core/search/reindex.ts). */
export const INDEX_WRITER_LOCK = 'search index writer';

interface Drained {
  /** Queue entries looked at, and taken off the queue. */
  seen: number;
  taken: number;
}

/** SQLite: indexes up to `batch` queued messages in one transaction (its one writer has drains take turns). */
async function drainBatchSqlite(db: Db, batch: number): Promise<Drained> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ last: number | null; taken: number }>`
      select max(id) as last, count(*) as taken from (select id from message_search_queue order by id limit ${batch})`.execute(tx);
    const last = rows[0]?.last;
    if (last === null || last === undefined) return { seen: 0, taken: 0 };
    const before = await sql<{ id: number | null }>`select max(id) as id from message_search_rows`.execute(tx);
    await sql`insert into message_search_rows (uid)
      select q.uid from message_search_queue q join messages m on m.uid = q.uid
      where q.id <= ${last} and not exists (select 1 from message_search_rows r where r.uid = q.uid)
      group by q.uid order by min(q.id)`.execute(tx);
    await sql`insert into message_search (rowid, text)
      select r.id, m.text from message_search_rows r join messages m on m.uid = r.uid where r.id > ${before.rows[0]?.id ?? 0}`.execute(tx);
    await sql`delete from message_search_queue where id <= ${last}`.execute(tx);
    return { seen: Number(rows[0].taken), taken: Number(rows[0].taken) };
  });
}

/**
 * PostgreSQL: two common table expressions that index the messages `uids` selects, those the index does
 * not hold yet: `free`, the messages read, and `written`, one row for each row of the index it wrote.
 * Writers of the index take turns on INDEX_WRITER_LOCK first.
 *
 * Each message read is locked against a delete (`for key share`) until its row of the index commits, so
 * that a delete cannot pass it and leave its row behind; a message whose delete is under way is passed
 * over without waiting (`skip locked`), so that a writer never waits on a delete of several messages in
 * a circle. An edit does not conflict with the lock: it writes the index itself (its trigger), and the
 * first of the two rows wins.
 */
export function indexingPostgres(uids: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`free as (select m.uid, m.chat_key, m.team_id, search_fold(m.text) as folded from messages m
      where m.uid in (${uids}) for key share skip locked),
    written as (insert into message_search (uid, chat_key, document, folded)
      select f.uid, f.chat_key, to_tsvector(coalesce(t.search_language, 'simple')::regconfig, f.folded), f.folded
      from free f left join teams t on t.id = f.team_id
      on conflict (uid) do nothing
      returning 1)`;
}

/**
 * PostgreSQL: indexes up to `batch` queued messages in one statement, the drains of every process taking
 * turns. A message passed over as being deleted stays queued until that delete ends (or fails).
 */
async function drainBatchPostgres(db: Db, batch: number): Promise<Drained> {
  return db.transaction().execute(async (tx) => {
    await lockName(tx, INDEX_WRITER_LOCK);
    const { rows } = await sql<{ seen: string; taken: string }>`
      with batch as (select id, uid from message_search_queue order by id limit ${batch}),
      ${indexingPostgres(sql`select uid from batch`)},
      taken as (delete from message_search_queue q using batch b where q.id = b.id
        and (b.uid in (select uid from free) or not exists (select 1 from messages m where m.uid = b.uid))
        returning 1)
      select (select count(*) from batch) as seen, (select count(*) from taken) as taken`.execute(tx);
    return { seen: Number(rows[0].seen), taken: Number(rows[0].taken) };
  });
}

/**
 * Indexes every message queued when it is called (and any queued meanwhile), in batches; returns how
 * many queue entries it took. Cheap when the queue is empty: one read, no transaction.
 */
export async function drainSearchQueue(db: Db, batch = DRAIN_BATCH): Promise<number> {
  const drainBatch = isSqlite(db) ? drainBatchSqlite : drainBatchPostgres;
  let drained = 0;
  for (;;) {
    const waiting = await sql<{ id: number }>`select id from message_search_queue limit 1`.execute(db);
    if (waiting.rows.length === 0) return drained;
    const { seen, taken } = await drainBatch(db, batch);
    drained += taken;
    // A short batch was the end of the queue; one taking nothing holds only messages being deleted.
    if (seen < batch || taken === 0) return drained;
  }
}
