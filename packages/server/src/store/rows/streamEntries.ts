import { CompiledQuery, SqliteAdapter } from 'kysely';
import type { StreamEntriesTable } from '../schema.js';
import { executeCompiled } from '../sqliteGroupCommit.js';
import type { Tx } from '../store.js';

/** A stream entry before it has a position: its frame's type, its audience and payload as JSON text. */
export type StreamEntryDraft = Pick<StreamEntriesTable, 'type' | 'audience' | 'payload'>;

/**
 * One statement per entry, on the path of every message sent. PostgreSQL increments the team's position
 * and inserts the entry in one statement (a data-modifying CTE); SQLite inserts at the next position and a
 * trigger (migration 0007) moves the team's position up to it.
 */
const APPEND = {
  postgres:
    'with taken as (update teams set stream_seq = stream_seq + 1 where id = $5 returning id, stream_seq) ' +
    'insert into stream_entries (team_id, seq, type, audience, payload, created_at) ' +
    'select id, stream_seq, $1, $2, $3, $4 from taken returning seq',
  sqlite:
    'insert into stream_entries (team_id, seq, type, audience, payload, created_at) ' +
    'select id, stream_seq + 1, ?, ?, ?, ? from teams where id = ? returning seq',
};

/**
 * The one writer of stream entries: appends `drafts` to the team's stream inside the caller's
 * transaction, at the next positions, and returns the last one. The positions come from
 * `teams.stream_seq`, whose row PostgreSQL keeps locked until the transaction ends: a team's positions
 * commit in order, so a reader that sees position N+1 also sees N. Call it last in a transaction, so
 * that the lock is held for as short a time as possible.
 */
export async function appendStreamEntries(tx: Tx, teamId: string, drafts: readonly StreamEntryDraft[], now: number): Promise<number> {
  const sqlText = tx.getExecutor().adapter instanceof SqliteAdapter ? APPEND.sqlite : APPEND.postgres;
  let last = 0;
  for (const draft of drafts) {
    const { rows } = await executeCompiled<{ seq: number }>(tx, CompiledQuery.raw(sqlText, [draft.type, draft.audience, draft.payload, now, teamId]));
    if (rows.length === 0) throw new Error(`no team ${teamId} to append a stream entry to`);
    last = Number(rows[0].seq);
  }
  return last;
}
