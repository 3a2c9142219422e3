import type { EventStatus } from '../../store/schema.js';
import type { Db } from '../../store/store.js';

/** The label of the apps past the busiest `maxApps`, summed together. App ids start with `a:`, so it is never one. */
export const OTHER_APPS = 'other';

export interface OutboxStats {
  /** Events by app and status, the busiest `maxApps` apps by name and the rest as OTHER_APPS. */
  byApp: Array<{ appId: string; status: string; count: number }>;
  /** Seconds since the oldest due event of an app whose delivery is not paused became due; 0 when none is. */
  lagSeconds: number;
}

/** Counts by status: the three the schema knows, and any other a row holds (it is counted, not dropped). */
type Counts = Record<string, number>;

const knownStatuses: EventStatus[] = ['pending', 'failed', 'delivered'];

/**
 * What the outbox holds, for GET /metrics: two queries, whatever the number of events (one grouped
 * count, one minimum over the `events_due` index). Apps are ranked by pending, then failed, then
 * delivered events, so that the ones a person should look at keep their own series; the number of
 * series stays at most 3 × (maxApps + 1) however many apps there are.
 */
export async function outboxStats(db: Db, now: number, maxApps: number): Promise<OutboxStats> {
  const [rows, oldestDue] = await Promise.all([
    db
      .selectFrom('events')
      .select(['app_id', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['status', 'app_id'])
      .execute(),
    db
      .selectFrom('events')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      // A paused app's events wait for a person to resume it: they are not late deliveries.
      .where('app_id', 'not in', (eb) => eb.selectFrom('apps').select('apps.id').where('apps.delivery_paused_at', 'is not', null))
      .executeTakeFirst(),
  ]);
  const due = oldestDue?.due;
  return { byApp: boundedByApp(rows, maxApps), lagSeconds: due === null || due === undefined ? 0 : Math.max(0, now - Number(due)) / 1000 };
}

function boundedByApp(rows: Array<{ app_id: string; status: string; count: number }>, maxApps: number): OutboxStats['byApp'] {
  const statuses = new Set<string>(knownStatuses);
  const apps = new Map<string, Counts>();
  for (const row of rows) {
    statuses.add(row.status);
    const counts = apps.get(row.app_id) ?? {};
    counts[row.status] = (counts[row.status] ?? 0) + Number(row.count);
    apps.set(row.app_id, counts);
  }
  const rank = (counts: Counts) => knownStatuses.map((status) => counts[status] ?? 0);
  const ranked = [...apps].sort(([idA, a], [idB, b]) => compareDescending(rank(a), rank(b)) || (idA < idB ? -1 : 1));
  const kept = ranked.slice(0, maxApps);
  if (ranked.length > maxApps) {
    const others: Counts = {};
    for (const [, counts] of ranked.slice(maxApps)) {
      for (const [status, count] of Object.entries(counts)) others[status] = (others[status] ?? 0) + count;
    }
    kept.push([OTHER_APPS, others]);
  }
  return kept.flatMap(([appId, counts]) => [...statuses].map((status) => ({ appId, status, count: counts[status] ?? 0 })));
}

function compareDescending(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i] - a[i];
  return 0;
}
