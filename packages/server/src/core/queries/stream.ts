import type { StreamEntriesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/** Where a person's stream starts: the team's position and, as of exactly that position, their channels. */
export interface StreamStart {
  seq: number;
  channels: string[];
}

/**
 * One statement, so one snapshot on both dialects: the channels are those of position `seq` (every
 * membership change appends to the stream in its own transaction), and entries after it update them.
 */
export async function streamStart(db: Db, teamId: string, userId: string): Promise<StreamStart | undefined> {
  const rows = await db
    .selectFrom('teams as t')
    .leftJoin('channel_members as m', (join) => join.on('m.user_id', '=', userId))
    .select(['t.stream_seq as seq', 'm.channel_id'])
    .where('t.id', '=', teamId)
    .execute();
  if (rows.length === 0) return undefined;
  return { seq: Number(rows[0].seq), channels: rows.flatMap((row) => (row.channel_id === null ? [] : [row.channel_id])) };
}

/**
 * The person's team and where its stream stands now. Every entry up to that position has committed (a
 * change holds the team's stream lock until its commit), so what a client loads after this answer is
 * at least as new, and a stream opened from this position brings whatever comes after.
 */
export async function teamAndStreamPosition(db: Db, teamId: string): Promise<{ team: { id: string; name: string }; streamCursor: string }> {
  const row = await db.selectFrom('teams').select(['id', 'name', 'stream_seq']).where('id', '=', teamId).executeTakeFirstOrThrow();
  return { team: { id: row.id, name: row.name }, streamCursor: String(row.stream_seq) };
}

export type StoredStreamEntry = Pick<StreamEntriesTable, 'seq' | 'type' | 'audience' | 'payload'>;

/** The team's entries after position `after`, oldest first, at most `limit`. */
export async function readStreamEntries(db: Db, teamId: string, after: number, limit: number): Promise<StoredStreamEntry[]> {
  const rows = await db
    .selectFrom('stream_entries')
    .select(['seq', 'type', 'audience', 'payload'])
    .where('team_id', '=', teamId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/** The oldest position the store still keeps for the team (older ones were pruned), if any. */
export async function oldestStreamSeq(db: Db, teamId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('stream_entries')
    .select((eb) => eb.fn.min('seq').as('oldest'))
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest);
}

/** Ids per statement: well below either dialect's limit on parameters. */
const chunkSize = 500;

/** Each team's last stream position. */
export async function teamStreamPositions(db: Db, teamIds: readonly string[]): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  for (let start = 0; start < teamIds.length; start += chunkSize) {
    const rows = await db.selectFrom('teams').select(['id', 'stream_seq']).where('id', 'in', teamIds.slice(start, start + chunkSize)).execute();
    for (const row of rows) positions.set(row.id, Number(row.stream_seq));
  }
  return positions;
}
