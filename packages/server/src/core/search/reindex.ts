import { sql } from 'kysely';
import { lockName } from '../../store/rows/locks.js';
import { isSqlite } from '../../store/rows/streamEntries.js';
import type { Db } from '../../store/store.js';
import { INDEX_WRITER_LOCK, indexingPostgres } from './searchQueue.js';

/**
 * `aviary search reindex`: indexes the messages the index does not hold yet (those from before
 * migration 0015), in uid order and in batches of one transaction each, while the server runs. Each
 * batch records how far it got in `search_reindex` in its own transaction, so a run stopped anywhere
 * resumes after its last batch. A message already indexed (the queue's drain indexes every new message,
 * a trigger every edit) is left as it is, so a batch never puts back an older text than an edit racing
 * it. On PostgreSQL a message being deleted is passed over (searchQueue.ts, indexingPostgres).
 */

export interface ReindexProgress {
  /** Messages looked at so far, and how many of them were missing from the index. */
  scanned: number;
  indexed: number;
  /** Messages in the store when the run began. */
  total: number;
  position: string | undefined;
}

export interface ReindexOptions {
  batchSize: number;
  /** Start from the oldest message rather than where the last run stopped. */
  restart: boolean;
  onBatch?: (progress: ReindexProgress) => void;
}

/** Indexes the batch's missing messages, uids in (after, last]; returns how many it indexed. */
async function indexRange(tx: Db, after: string, last: string): Promise<number> {
  if (isSqlite(tx)) {
    const before = await sql<{ id: number | null }>`select max(id) as id from message_search_rows`.execute(tx);
    const inserted = await sql`insert into message_search_rows (uid)
      select m.uid from messages m where m.uid > ${after} and m.uid <= ${last}
      and not exists (select 1 from message_search_rows r where r.uid = m.uid) order by m.uid`.execute(tx);
    await sql`insert into message_search (rowid, text)
      select r.id, m.text from message_search_rows r join messages m on m.uid = r.uid where r.id > ${before.rows[0]?.id ?? 0}`.execute(tx);
    return Number(inserted.numAffectedRows ?? 0);
  }
  await lockName(tx, INDEX_WRITER_LOCK);
  const { rows } = await sql<{ indexed: string }>`with ${indexingPostgres(sql`select uid from messages where uid > ${after} and uid <= ${last}`)}
    select count(*) as indexed from written`.execute(tx);
  return Number(rows[0].indexed);
}

export async function reindexMessages(db: Db, options: ReindexOptions): Promise<ReindexProgress> {
  const stored = options.restart ? undefined : await db.selectFrom('search_reindex').select('position').executeTakeFirst();
  const { count } = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  const progress: ReindexProgress = { scanned: 0, indexed: 0, total: Number(count), position: stored?.position };
  for (;;) {
    const after = progress.position ?? '';
    const batch = await db.selectFrom('messages').select('uid').where('uid', '>', after).orderBy('uid').limit(options.batchSize).execute();
    const last = batch.at(-1)?.uid;
    if (last === undefined) return progress;
    progress.indexed += await db.transaction().execute(async (tx) => {
      const indexed = await indexRange(tx, after, last);
      await tx.deleteFrom('search_reindex').execute();
      await tx.insertInto('search_reindex').values({ position: last }).execute();
      return indexed;
    });
    progress.scanned += batch.length;
    progress.position = last;
    options.onBatch?.(progress);
  }
}
