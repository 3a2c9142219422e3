import { CompiledQuery, sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { StreamEntriesTable } from '../schema.js';
import { executeCompiled } from '../sqliteGroupCommit.js';
import type { Db, Tx } from '../store.js';
import { POSITIONS_PER_TRANSACTION, POSTGRES_READABLE_BELOW } from '../streamWatermark.js';

/** A stream entry before it has a position: its frame's type, its audience and payload as JSON text. */
export type StreamEntryDraft = Pick<StreamEntriesTable, 'type' | 'audience' | 'payload'>;

export { POSITIONS_PER_TRANSACTION };

/**
 * One statement per entry. PostgreSQL increments the team's position and inserts the entry in one
 * statement (a data-modifying CTE), and keeps the team's row locked until the transaction ends, so a
 * team's positions commit in order; SQLite inserts at the next position and a trigger (migration 0007)
 * moves the team's position up to it, its one writer keeping positions in commit order.
 *
 * (Positions taken from the transaction's id, with readers held below a watermark, let a team's writers
 * commit side by side, but a reader missed an entry under 16 concurrent writers in one run of
 * stream/concurrentWriters.test.ts: back to the team's row until that is understood. The watermark
 * readers stay; with these positions it never holds them back.)
 */
const APPEND_POSTGRES =
  'with taken as (update teams set stream_seq = stream_seq + 1 where id = $5 returning id, stream_seq) ' +
  'insert into stream_entries (team_id, seq, type, audience, payload, created_at) ' +
  'select id, stream_seq, $1, $2, $3, $4 from taken returning seq';
const APPEND_SQLITE =
  'insert into stream_entries (team_id, seq, type, audience, payload, created_at) ' +
  'select id, stream_seq + 1, ?, ?, ?, ? from teams where id = ? returning seq';

export const isSqlite = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * The one writer of stream entries: appends `drafts` to the team's stream inside the caller's
 * transaction and returns the last position taken. A reader never sees a position before one it already
 * read appear later: on SQLite positions commit in order; on PostgreSQL readers stay below
 * `readableBelow`. Call it last in a transaction: on PostgreSQL an entry becomes readable only once
 * every transaction older than its own has ended.
 */
export async function appendStreamEntries(tx: Tx, teamId: string, drafts: readonly StreamEntryDraft[], now: number): Promise<number> {
  if (drafts.length === 0) throw new Error('appendStreamEntries: no entries to append');
  const sqlText = isSqlite(tx) ? APPEND_SQLITE : APPEND_POSTGRES;
  let last = 0;
  for (const draft of drafts) {
    const { rows } = await executeCompiled<{ seq: number }>(tx, CompiledQuery.raw(sqlText, [draft.type, draft.audience, draft.payload, now, teamId]));
    if (rows.length === 0) throw new Error(`no team ${teamId} to append a stream entry to`);
    last = Number(rows[0].seq);
  }
  return last;
}

/**
 * PostgreSQL: the first position a reader may not read yet (streamWatermark.ts). Undefined on SQLite,
 * where every committed position is final.
 */
export function readableBelow(db: Kysely<any>): RawBuilder<number> | undefined {
  return isSqlite(db) ? undefined : POSTGRES_READABLE_BELOW;
}


/**
 * PostgreSQL: the team's position below the watermark `below`: its last entry that may be read, or where
 * it stood before migration 0010 or was pruned to, whichever is last. `t` is the team's row.
 */
export const postgresTeamPosition = (below: RawBuilder<number>) =>
  sql<number>`greatest(coalesce((select e.seq from stream_entries e where e.team_id = t.id and e.seq < ${below} order by e.seq desc limit 1), 0), t.stream_seq, t.stream_pruned)`;

/** The same, below the watermark of the statement's snapshot. */
export const POSTGRES_TEAM_POSITION = postgresTeamPosition(POSTGRES_READABLE_BELOW);

/** Positions up to `upTo` may be pruned from now on: a cursor below it resyncs. */
export async function markStreamPruned(db: Db, teamId: string, upTo: number): Promise<void> {
  await db
    .updateTable('teams')
    .set((eb) => ({ stream_pruned: sql<number>`case when ${eb.ref('stream_pruned')} > ${upTo} then ${eb.ref('stream_pruned')} else ${upTo} end` }))
    .where('id', '=', teamId)
    .execute();
}
