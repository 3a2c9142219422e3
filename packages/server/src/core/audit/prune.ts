import type { Db } from '../../store/store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes audit log rows older than `retentionDays` (config.auditRetentionDays), oldest first, a batch
 * at a time, each batch one short DELETE of the ids just read, so neither dialect
 * holds a long lock. The only code that deletes audit rows. Answers how many it deleted.
 */
export async function pruneAuditLog(db: Db, now: number, retentionDays: number, batchSize = 500): Promise<number> {
  const cutoff = now - retentionDays * DAY_MS;
  let deleted = 0;
  for (;;) {
    const ids = (await db.selectFrom('audit_log').select('id').where('at', '<', cutoff).orderBy('at').limit(batchSize).execute()).map((row) => row.id);
    if (ids.length === 0) break;
    const result = await db.deleteFrom('audit_log').where('id', 'in', ids).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    if (ids.length < batchSize) break;
  }
  return deleted;
}
