import { markStreamPruned } from '../../store/rows/streamEntries.js';
import type { Db } from '../../store/store.js';

/** Entries deleted per statement, so that pruning never holds SQLite's one writer for long. */
const PRUNE_CHUNK = 5000;

/**
 * Drops stream entries older than the retention, and tickets that expired. Per team only a prefix of
 * positions goes (everything up to the newest expired one), marked first on the team's row
 * (`stream_pruned`), so a resuming client is told exactly whether something it missed is gone. Which entries expired is read outside
 * any transaction (on SQLite, by the read connection); the deletes go by the primary key, in chunks.
 */
export async function pruneStream(db: Db, input: { now: number; retentionMs: number }): Promise<void> {
  const expired = await db
    .selectFrom('stream_entries')
    .select(['team_id', (eb) => eb.fn.max('seq').as('last')])
    .where('created_at', '<', input.now - input.retentionMs)
    .groupBy('team_id')
    .execute();
  for (const { team_id, last } of expired) {
    await markStreamPruned(db, team_id, Number(last));
    // Positions are not consecutive (PostgreSQL): each chunk ends at its PRUNE_CHUNK-th entry.
    for (;;) {
      const edge = await db
        .selectFrom('stream_entries')
        .select('seq')
        .where('team_id', '=', team_id)
        .where('seq', '<=', Number(last))
        .orderBy('seq')
        .offset(PRUNE_CHUNK - 1)
        .limit(1)
        .executeTakeFirst();
      await db.deleteFrom('stream_entries').where('team_id', '=', team_id).where('seq', '<=', edge ? Number(edge.seq) : Number(last)).execute();
      if (!edge) break;
    }
  }
  await db.deleteFrom('stream_tickets').where('expires_at', '<=', input.now).execute();
}
