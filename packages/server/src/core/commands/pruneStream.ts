import type { Db } from '../../store/store.js';

/**
 * Drops stream entries older than the retention, and tickets that expired. Per team only a prefix of
 * positions goes (everything up to the newest expired one), so the oldest kept position tells a
 * resuming client exactly whether something it missed is gone.
 */
export async function pruneStream(db: Db, input: { now: number; retentionMs: number }): Promise<void> {
  const expired = await db
    .selectFrom('stream_entries')
    .select(['team_id', (eb) => eb.fn.max('seq').as('last')])
    .where('created_at', '<', input.now - input.retentionMs)
    .groupBy('team_id')
    .execute();
  for (const { team_id, last } of expired) {
    await db.deleteFrom('stream_entries').where('team_id', '=', team_id).where('seq', '<=', Number(last)).execute();
  }
  await db.deleteFrom('stream_tickets').where('expires_at', '<=', input.now).execute();
}
