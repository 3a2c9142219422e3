import { CompiledQuery, sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { StreamEntriesTable } from '../schema.js';
import { executeCompiled } from '../sqliteGroupCommit.js';
import type { Db, Tx } from '../store.js';
import { POSITIONS_PER_TRANSACTION, POSTGRES_READABLE_BELOW } from '../streamWatermark.js';

/** A stream entry before it has a position: its frame's type, its audience and payload as JSON text. */
export type StreamEntryDraft = Pick<StreamEntriesTable, 'type' | 'audience' | 'payload'>;

export { POSITIONS_PER_TRANSACTION };

/** Cursors are at most 15 digits (docs/reference/stream.md): about 10^12 transactions. */
const MAX_POSITION = 1e15;

/**
 * PostgreSQL: every entry of a transaction takes its place from the transaction's id (`xid8`), after the
 * entries it already wrote for the team (all of them in one statement). Nothing is locked: concurrent
 * changes of a team append side by side. SQLite: one statement per entry, at the next position, whose
 * trigger (migration 0007) moves the team's position up to it; its one writer keeps positions in
 * commit order.
 */
const APPEND_POSTGRES =
  'insert into stream_entries (team_id, seq, type, audience, payload, created_at) ' +
  'select $1::text, base.first + d.ord - 1, d.type, d.audience, d.payload, $2::bigint ' +
  'from (select coalesce((select max(e.seq) + 1 from stream_entries e where e.team_id = $1::text and e.seq >= x.low ' +
  `and e.seq < x.low + ${POSITIONS_PER_TRANSACTION}), x.low) as first ` +
  `from (select pg_current_xact_id()::text::bigint * ${POSITIONS_PER_TRANSACTION} as low) x) base, ` +
  'unnest($3::text[], $4::text[], $5::text[]) with ordinality as d(type, audience, payload, ord) ' +
  'returning seq';
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
  if (isSqlite(tx)) {
    let last = 0;
    for (const draft of drafts) {
      const { rows } = await executeCompiled<{ seq: number }>(tx, CompiledQuery.raw(APPEND_SQLITE, [draft.type, draft.audience, draft.payload, now, teamId]));
      if (rows.length === 0) throw new Error(`no team ${teamId} to append a stream entry to`);
      last = Number(rows[0].seq);
    }
    return last;
  }
  const parameters = [teamId, now, drafts.map((d) => d.type), drafts.map((d) => d.audience), drafts.map((d) => d.payload)];
  const { rows } = await tx.executeQuery<{ seq: number }>(CompiledQuery.raw(APPEND_POSTGRES, parameters));
  const positions = rows.map((row) => Number(row.seq));
  const first = Math.min(...positions);
  const last = Math.max(...positions);
  if (Math.floor(first / POSITIONS_PER_TRANSACTION) !== Math.floor(last / POSITIONS_PER_TRANSACTION)) {
    throw new Error(`a transaction may append at most ${POSITIONS_PER_TRANSACTION} entries to a team's stream`);
  }
  if (last >= MAX_POSITION) throw new Error('stream positions have outgrown 15 digits: the cluster has passed 10^12 transactions');
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
