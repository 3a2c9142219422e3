// `aviary events tail`: the CLI is a process of its own, without the server's event bus, so it looks in
// the store at an interval: events made since a point, the outcome of those still pending, and the
// attempts made since that point at any event of the app (a replay of one settled long ago included).
import type { DeliveredEvent, DeliveryAttempt } from '@aviary/protocol';
import { listEventAttempts, presentEvent } from '../events/history/eventHistory.js';
import { attemptIdFloor, eventIdFloor } from '../events/ids.js';
import { newAttemptsOf } from './tailAttempts.js';
import type { EventsTable } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { CliError } from './errors.js';

export interface TailLine {
  event: DeliveredEvent;
  /** The latest attempt at it, if any. */
  lastAttempt: DeliveryAttempt | null;
}

export interface FollowOptions {
  /** Events made from this time on (milliseconds), or after this event id. */
  since: number | string;
  intervalMs: number;
  /** Stop once this many events have settled (delivered or failed). */
  exitAfter?: number;
  signal: AbortSignal;
  print: (line: TailLine) => void;
}

/** New events read per look; more wait for the next look. */
const pageSize = 200;
/** Pending events followed for their outcome; beyond this, the oldest are no longer followed. */
const maxFollowed = 500;

/**
 * Prints each event once seen and again at each change of state, and each attempt made since `since` at
 * an event it is not following already (a replay, a retry of an event settled before the tail started)
 * as a line of its own; resolves with how many settled.
 */
export async function followEvents(db: Db, appId: string, options: FollowOptions): Promise<number> {
  let cursor = typeof options.since === 'string' ? options.since : eventIdFloor(options.since);
  const attempts = newAttemptsOf(db, appId, typeof options.since === 'string' ? `at_${options.since.slice('ev_'.length)}` : attemptIdFloor(options.since));
  const shown = new Map<string, DeliveredEvent['status']>();
  let settled = 0;
  while (!options.signal.aborted) {
    const app = await db.selectFrom('apps').select(['delivery_paused_at', 'listener_retry_at']).where('id', '=', appId).executeTakeFirst();
    if (!app) throw new CliError('UnknownApp', `The app "${appId}" was deleted while it was followed.`);
    const fresh = await db.selectFrom('events').selectAll().where('app_id', '=', appId).where('id', '>', cursor).orderBy('id').limit(pageSize).execute();
    const followed = [...shown.keys()];
    const known = followed.length === 0 ? [] : await db.selectFrom('events').selectAll().where('id', 'in', followed).orderBy('id').execute();
    const attempted = await attempts.next();
    // Fresh and followed events print at a change of state; any other event, at each new attempt.
    const watched = new Set([...followed, ...fresh.map((row) => row.id)]);
    const revived = await eventsByIds(db, [...new Set(attempted.filter((attempt) => !watched.has(attempt.eventId)).map((attempt) => attempt.eventId))]);
    for (const row of [...known, ...fresh, ...revived]) {
      const event = presentEvent(row, app.delivery_paused_at != null, app.listener_retry_at);
      if (watched.has(row.id) && shown.get(row.id) === event.status) continue;
      const all = await listEventAttempts(db, row.id);
      options.print({ event, lastAttempt: all.at(-1) ?? null });
      if (event.status === 'delivered' || event.status === 'failed') {
        shown.delete(row.id);
        settled++;
        if (options.exitAfter !== undefined && settled >= options.exitAfter) return settled;
      } else {
        shown.set(row.id, event.status);
        if (shown.size > maxFollowed) shown.delete(shown.keys().next().value as string);
      }
    }
    cursor = lastId(fresh) ?? cursor;
    await pause(options.intervalMs, options.signal);
  }
  return settled;
}

const lastId = (rows: EventsTable[]): string | undefined => rows.at(-1)?.id;

const eventsByIds = (db: Db, ids: string[]): Promise<EventsTable[]> =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id').execute();

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** `--since`: an ISO 8601 time, a number of minutes, hours or days ago (10m, 2h, 1d), or an event id. */
export function parseSince(value: string, now: number): number | string {
  if (/^ev_[0-9A-Z]{26}$/.test(value)) return value;
  const ago = /^(\d{1,6})([mhd])$/.exec(value);
  if (ago) return now - Number(ago[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 'm' | 'h' | 'd'];
  const time = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && Number.isFinite(time)) return time;
  throw new CliError('InvalidOption', `--since must be an ISO 8601 time (2026-01-31T09:00:00Z), a time ago (10m, 2h, 1d) or an event id (ev_…); got ${JSON.stringify(value)}.`);
}
