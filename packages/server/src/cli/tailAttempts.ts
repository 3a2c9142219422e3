import { attemptIdFloor } from '../events/ids.js';
import type { Db } from '../store/store.js';

/** An attempt's id is made when it starts, and it is written when it ends: one that ends late sorts before those written already. */
const lateWriteMs = 120_000;
/** Attempts read per look; more wait for the next look. */
const pageSize = 200;
/** Attempt ids remembered, so that a look back over the late-write window prints none twice. */
const maxRemembered = 5000;

/**
 * The attempts at an app's events made since a point (an attempt id floor), each given once: every look
 * reads from a little before the newest start seen, because attempt ids sort by start and attempts are
 * written when they end, and leaves out those it gave already. Reads the attempts' primary key from the
 * floor on, so each look costs what was attempted since, for every app, not the app's whole history.
 */
export function newAttemptsOf(db: Db, appId: string, floor: string) {
  let newestStart = 0;
  const given = new Set<string>();
  return {
    async next(): Promise<Array<{ id: string; eventId: string }>> {
      const from = newestStart === 0 ? floor : maxId(floor, attemptIdFloor(newestStart - lateWriteMs));
      const rows = await db
        .selectFrom('event_attempts')
        .select(['id', 'event_id', 'started_at'])
        .where('id', '>=', from)
        .where('app_id', '=', appId)
        .orderBy('id')
        .limit(pageSize + given.size)
        .execute();
      const fresh = rows.filter((row) => !given.has(row.id)).slice(0, pageSize);
      for (const row of fresh) {
        given.add(row.id);
        newestStart = Math.max(newestStart, row.started_at);
      }
      for (const id of given) {
        if (given.size <= maxRemembered) break;
        given.delete(id);
      }
      return fresh.map((row) => ({ id: row.id, eventId: row.event_id }));
    },
  };
}

const maxId = (a: string, b: string): string => (a > b ? a : b);
