import type { Db } from '../../store/store.js';

/** Entries deleted per statement, so that pruning never holds SQLite's one writer for long. */
const PRUNE_CHUNK = 5000;

/**
 * Drops stream entries older than the retention, and tickets that expired. Per team only a prefix of
 * positions goes (everything up to the newest expired one), so the oldest kept position tells a
 * resuming client exactly whether something it missed is gone. Which entries expired is read outside
 * any transaction (on SQLite, by the read connection); the deletes go by the primary key, in chunks.
 */
export async function pruneStream(db: Db, input: { now: number; retentionMs: number }): Promise<void> {
  const expired = await db
    .selectFrom('stream_entries')
    .select(['team_id', (eb) => eb.fn.min('seq').as('first'), (eb) => eb.fn.max('seq').as('last')])
    .where('created_at', '<', input.now - input.retentionMs)
    .groupBy('team_id')
    .execute();
  for (const { team_id, first, last } of expired) {
    for (let upTo = Number(first) + PRUNE_CHUNK - 1; ; upTo += PRUNE_CHUNK) {
      await db.deleteFrom('stream_entries').where('team_id', '=', team_id).where('seq', '<=', Math.min(upTo, Number(last))).execute();
      if (upTo >= Number(last)) break;
    }
  }
  await db.deleteFrom('stream_tickets').where('expires_at', '<=', input.now).execute();
}
