import { expect, it } from 'vitest';
import type { AnyEvent } from '@aviary/protocol';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { pruneFinishedEvents } from '../../src/events/outbox/retention.js';
import type { EventStatus } from '../../src/store/schema.js';
import { factories } from '../helpers/factories.js';
import { forEachDialect } from '../helpers/server.js';

const DAY_MS = 24 * 60 * 60 * 1000;

forEachDialect('retention of finished events and their attempts', (t) => {
  /** An event of a new app in `status`, last changed `daysAgo` days ago, with `attempts` attempts. */
  const eventsOf = async () => {
    const { db } = t().testStore.store;
    const f = factories(db);
    const team = await f.team();
    const developer = await f.person(team.id);
    const app = await f.app(team.id, developer.id);
    const now = Date.now();
    const make = async (status: EventStatus, daysAgo: number, attempts = 2) => {
      const event = { name: 'app.uninstall', userId: developer.id } as AnyEvent;
      const { eventId } = (await enqueueEvent(db, { appId: app.id, userId: developer.id, event }, now - daysAgo * DAY_MS))!;
      await db.updateTable('events').set({ status, updated_at: now - daysAgo * DAY_MS, next_attempt_at: null }).where('id', '=', eventId).execute();
      for (let n = 0; n < attempts; n++) {
        await db
          .insertInto('event_attempts')
          .values({ id: `${eventId}-${n}`, event_id: eventId, app_id: app.id, retry_num: n, started_at: now - daysAgo * DAY_MS, duration_ms: 5, status: 200, reason: null, error: null, response_snippet: null, outcome: status === 'failed' ? 'failed' : 'delivered' })
          .execute();
      }
      return eventId;
    };
    const left = async () => (await db.selectFrom('events').select('id').where('app_id', '=', app.id).orderBy('id').execute()).map((row) => row.id);
    const attemptsLeft = async () => (await db.selectFrom('event_attempts').select('event_id').where('app_id', '=', app.id).execute()).map((row) => row.event_id);
    return { db, now, make, left, attemptsLeft };
  };

  it('deletes delivered events after 30 days and failed ones after 90, with their attempts; pending ones never', async () => {
    const { db, now, make, left, attemptsLeft } = await eventsOf();
    await make('delivered', 31);
    const recentDelivered = await make('delivered', 29);
    await make('failed', 91);
    const recentFailed = await make('failed', 60);
    const ancientPending = await make('pending', 400, 1);
    // Batches of one: several transactions, each short.
    const pruned = await pruneFinishedEvents(db, now, { deliveredMs: 30 * DAY_MS, failedMs: 90 * DAY_MS, batchSize: 1 });
    expect(pruned.events).toBeGreaterThanOrEqual(2);
    expect((await left()).sort()).toEqual([recentDelivered, recentFailed, ancientPending].sort());
    expect(new Set(await attemptsLeft())).toEqual(new Set([recentDelivered, recentFailed, ancientPending]));
  });

  it('runs as the server’s job, and counts what it deleted in the metrics', async () => {
    const { make, left } = await eventsOf();
    const scrape = async () => {
      const text = await (await fetch(`${t().url}/metrics`)).text();
      const value = (kind: string) => Number(new RegExp(`^aviary_retention_deleted_total\\{kind="${kind}"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
      return { events: value('events'), attempts: value('event_attempts') };
    };
    const before = await scrape();
    const kept = await make('delivered', 1);
    await make('delivered', 45, 3);
    await t().server.retention.runOnce();
    expect(await left()).toEqual([kept]);
    const after = await scrape();
    // Other tests' old events of this store may go in the same pass: at least these.
    expect(after.events - before.events).toBeGreaterThanOrEqual(1);
    expect(after.attempts - before.attempts).toBeGreaterThanOrEqual(3);
  });
});
