import { compiledOnce } from '../compiledOnce.js';
import type { StreamEntriesTable } from '../schema.js';
import type { Tx } from '../store.js';

/** A stream entry before it has a position: its frame's type, its audience and payload as JSON text. */
export type StreamEntryDraft = Pick<StreamEntriesTable, 'type' | 'audience' | 'payload'>;

// One entry is the hot path (every message sent): compiled once per store.
const takeOnePosition = compiledOnce((db, p: { teamId: string }) =>
  db
    .updateTable('teams')
    .set((eb) => ({ stream_seq: eb('stream_seq', '+', 1) }))
    .where('id', '=', p.teamId)
    .returning('stream_seq'),
);
const insertOne = compiledOnce((db, entry: StreamEntriesTable) => db.insertInto('stream_entries').values(entry));

/**
 * The one writer of stream entries: appends `drafts` to the team's stream inside the caller's
 * transaction, at the next positions, and returns the last one. The positions come from incrementing
 * `teams.stream_seq`, which on PostgreSQL holds the team row's lock until the transaction ends: a team's
 * positions commit in order, so a reader that sees position N+1 also sees N. Call it last in a
 * transaction, so that the lock is held for as short a time as possible.
 */
export async function appendStreamEntries(tx: Tx, teamId: string, drafts: readonly StreamEntryDraft[], now: number): Promise<number> {
  if (drafts.length === 1) {
    const [taken] = await takeOnePosition(tx, { teamId });
    if (!taken) throw new Error(`no team ${teamId} to append a stream entry to`);
    await insertOne(tx, { team_id: teamId, seq: Number(taken.stream_seq), created_at: now, ...drafts[0] });
    return Number(taken.stream_seq);
  }
  const taken = await tx
    .updateTable('teams')
    .set((eb) => ({ stream_seq: eb('stream_seq', '+', drafts.length) }))
    .where('id', '=', teamId)
    .returning('stream_seq')
    .executeTakeFirstOrThrow();
  const last = Number(taken.stream_seq);
  const first = last - drafts.length + 1;
  await tx
    .insertInto('stream_entries')
    .values(drafts.map((draft, i) => ({ team_id: teamId, seq: first + i, created_at: now, ...draft })))
    .execute();
  return last;
}
