import { sql } from 'kysely';
import { isSqlite, POSTGRES_TEAM_POSITION, postgresTeamPosition, readableBelow } from '../../store/rows/streamEntries.js';
import { POSTGRES_READABLE_BELOW } from '../../store/streamWatermark.js';
import type { StreamEntriesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { channelsBefore, membershipChange, type MembershipChange } from '../stream/membership.js';

/**
 * Where a person's stream starts: the team's position and, as of exactly that position, their channels;
 * and whether they are a guest, read after it (a change of role the stream did not start from is one it
 * applies when it reaches its entry).
 */
export interface StreamStart {
  seq: number;
  channels: string[];
  guest: boolean;
}

/**
 * One statement, so one snapshot on both dialects (and on PostgreSQL one watermark, `w`, computed once:
 * `pg_locks` may answer differently each time): the channels are those of position `seq`. On SQLite
 * every membership change appends to the stream in its own transaction, whose commit moves the team's
 * position. On PostgreSQL the snapshot may also hold changes that committed above the readable
 * position: their membership entries come with the answer and are undone, and the stream applies them
 * again when it reaches them.
 */
export async function streamStart(db: Db, teamId: string, userId: string): Promise<StreamStart | undefined> {
  const position = await streamPosition(db, teamId, userId);
  if (!position) return undefined;
  const { role } = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow();
  return { ...position, guest: role === 'guest' };
}

async function streamPosition(db: Db, teamId: string, userId: string): Promise<Omit<StreamStart, 'guest'> | undefined> {
  if (isSqlite(db)) {
    const rows = await db
      .selectFrom('teams as t')
      .leftJoin('channel_members as m', (join) => join.on('m.user_id', '=', userId))
      .select(['t.stream_seq as seq', 'm.channel_id'])
      .where('t.id', '=', teamId)
      .execute();
    if (rows.length === 0) return undefined;
    return { seq: Number(rows[0].seq), channels: rows.flatMap((row) => (row.channel_id === null ? [] : [row.channel_id])) };
  }
  const { rows } = await sql<{ seq: number; channels: string[]; later: Array<[string, unknown]> }>`
    select ${postgresTeamPosition(sql<number>`w.below`)} as seq,
      (select coalesce(json_agg(m.channel_id), '[]') from channel_members m where m.user_id = ${userId}) as channels,
      (select coalesce(json_agg(json_build_array(e.type, e.payload::json) order by e.seq), '[]') from stream_entries e
        where e.team_id = t.id and e.seq >= w.below and e.type like 'channel.%') as later
    from teams t, (select ${POSTGRES_READABLE_BELOW} as below offset 0) w where t.id = ${teamId}`.execute(db);
  if (rows.length === 0) return undefined;
  const { seq, channels, later } = rows[0];
  const changes = later.flatMap(([type, payload]): MembershipChange[] => {
    const change = membershipChange(type, payload);
    return change ? [change] : [];
  });
  return { seq: Number(seq), channels: [...channelsBefore(channels, userId, changes)] };
}

/**
 * The person's team and where its stream stands now. Every entry up to that position has committed and
 * no earlier one can still come, so what a client loads after this answer is at least as new, and a
 * stream opened from this position brings whatever comes after.
 */
export async function teamAndStreamPosition(db: Db, teamId: string): Promise<{ team: { id: string; name: string; icon?: string }; streamCursor: string }> {
  const [position] = (await teamStreamPositions(db, [teamId])).values();
  const row = await db.selectFrom('teams').select(['id', 'name', 'icon_url']).where('id', '=', teamId).executeTakeFirstOrThrow();
  return { team: { id: row.id, name: row.name, ...(row.icon_url ? { icon: row.icon_url } : {}) }, streamCursor: String(position ?? 0) };
}

export type StoredStreamEntry = Pick<StreamEntriesTable, 'seq' | 'type' | 'audience' | 'payload'>;

/** The team's entries after position `after` that may be read, oldest first, at most `limit`. */
export async function readStreamEntries(db: Db, teamId: string, after: number, limit: number): Promise<StoredStreamEntry[]> {
  const below = readableBelow(db);
  const rows = await db
    .selectFrom('stream_entries')
    .select(['seq', 'type', 'audience', 'payload'])
    .where('team_id', '=', teamId)
    .where('seq', '>', after)
    .$if(below !== undefined, (qb) => qb.where('seq', '<', below!))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

/**
 * What decides whether a client may resume after `from` when the team stands at `current`: positions up
 * to `pruned` may be gone, and `behind` entries lie between (counted up to `limit` + 1 at most).
 */
export async function resumeFacts(db: Db, teamId: string, from: number, current: number, limit: number): Promise<{ pruned: number; behind: number }> {
  const { rows } = await sql<{ pruned: number; behind: number }>`
    select t.stream_pruned as pruned, (select count(*) from (select 1 from stream_entries e
      where e.team_id = ${teamId} and e.seq > ${from} and e.seq <= ${current} limit ${limit + 1}) x) as behind
    from teams t where t.id = ${teamId}`.execute(db);
  if (rows.length === 0) throw new Error(`no team ${teamId}`);
  return { pruned: Number(rows[0].pruned), behind: Number(rows[0].behind) };
}

/** Ids per statement: well below either dialect's limit on parameters. */
const chunkSize = 500;

/** Each team's last stream position that may be read. */
export async function teamStreamPositions(db: Db, teamIds: readonly string[]): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  const sqlite = isSqlite(db);
  for (let start = 0; start < teamIds.length; start += chunkSize) {
    const rows = await db
      .selectFrom('teams as t')
      .select(['t.id', sqlite ? sql<number>`t.stream_seq`.as('seq') : POSTGRES_TEAM_POSITION.as('seq')])
      .where('t.id', 'in', teamIds.slice(start, start + chunkSize))
      .execute();
    for (const row of rows) positions.set(row.id, Number(row.seq));
  }
  return positions;
}
