import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AnyEvent } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { openStore, type Store } from '../../src/store/store.js';
import { serveScratch } from '../cli/cli.js';
import { dialects, postgresTestUrl } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { answerOk, closedPortUrl, startListener } from '../helpers/listener.js';
import { adminQuery } from '../helpers/store.js';

const eventCount = 30;
/** The figure the recovery must meet, from the moment both the listener and the server are back. */
const recoveryTargetMs = 15_000;

/** How many of the app's events `aviary serve` has logged `message` for (its log: JSON lines on stdout, each once recorded). */
function eventsLogged(lines: string[], message: RegExp): number {
  const eventIds = lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { msg?: string; eventId?: string };
      return parsed.eventId && message.test(parsed.msg ?? '') ? [parsed.eventId] : [];
    } catch {
      return [];
    }
  });
  return new Set(eventIds).size;
}
const waitsForListener = /^listener unreachable \(connection_failed\); waits for the listener(, tried next at .*)?$/;
const delivered = /^event delivered$/;

/**
 * The drain after an outage, measured with the real clock on real processes: 30 events wait while an
 * app's listener is down, the `aviary serve` process is killed with SIGKILL and started again, and then
 * the listener comes back where it was. No timing is waited out: the test waits for the listener to
 * have received the 30th event (or the store to show a state), and then checks how long it took.
 */
for (const dialect of dialects) {
  describe(`recovering from a listener outage and a SIGKILL [${dialect}]`, () => {
    const scratch = serveScratch();

    /** A store of its own for `aviary serve` (the CLI takes a plain database URL), and the environment to serve it. */
    async function storeForServe(): Promise<{ store: Store; env: Record<string, string>; args: string[] }> {
      const dataDir = scratch.dataDir();
      if (dialect === 'sqlite') return { store: openStore({ dataDir }), env: {}, args: ['--data', dataDir] };
      const database = `aviary_recovery_${randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${database}`);
      const url = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
      const store = openStore({ dataDir, databaseUrl: url });
      scratch.after(async () => {
        await store.close();
        await adminQuery(`drop database if exists ${database} with (force)`);
      });
      return { store, env: { DATABASE_URL: url }, args: ['--data', dataDir] };
    }

    it(`delivers all ${eventCount} waiting events within 15 s of both being back, in lane order, each once`, { timeout: 120_000 }, async () => {
      const { store, env, args } = await storeForServe();
      if (dialect === 'sqlite') scratch.after(() => store.close());
      await store.migrate();
      const listenerUrl = await closedPortUrl();
      const f = factories(store.db);
      const team = await f.team();
      const developer = await f.person(team.id);
      const app = await f.app(team.id, developer.id, { listenerUrl });

      const first = await scratch.serve(args, env);
      const eventIds: string[] = [];
      await store.db.transaction().execute(async (tx) => {
        for (let n = 0; n < eventCount; n++) {
          const event = { name: 'app.uninstall', userId: developer.id, n } as AnyEvent;
          eventIds.push((await enqueueEvent(tx, { appId: app.id, userId: developer.id, event }, Date.now()))!.eventId);
        }
      });
      const rows = () => store.db.selectFrom('events').selectAll().where('app_id', '=', app.id).orderBy('id').execute();
      // Each tried once and now waiting for the listener.
      await first.printedOnStdout((lines) => eventsLogged(lines, waitsForListener) === eventCount);
      expect((await rows()).every((row) => row.retry_num >= 1 && row.next_attempt_at === null && row.claim_token === null)).toBe(true);
      await first.stop('SIGKILL');

      // This one logs each delivery too (info).
      const second = await scratch.serve(args, { ...env, AVIARY_LOG_LEVEL: 'info' });
      // The restarted server has tried the listener (its probe at start), still in vain: it is back first.
      await second.printedOnStdout((lines) => eventsLogged(lines, waitsForListener) >= 1);
      const attempts = await store.db.selectFrom('event_attempts').select('outcome').where('app_id', '=', app.id).execute();
      expect(attempts.length).toBeGreaterThan(eventCount);
      const listener = await startListener(answerOk, Number(new URL(listenerUrl).port));
      scratch.after(() => listener.close());
      const bothBack = performance.now();
      const received = await listener.waitFor(eventCount, 60_000);
      const recoveryMs = received[eventCount - 1].at - bothBack;
      expect(recoveryMs).toBeLessThan(recoveryTargetMs);

      await second.printedOnStdout((lines) => eventsLogged(lines, delivered) === eventCount);
      expect((await rows()).map((row) => row.status)).toEqual(eventIds.map(() => 'delivered'));
      // The server stops, and every connection to the listener closes: whatever it sent has been read.
      expect(await second.stop('SIGTERM')).toBe(0);
      await listener.allConnectionsClosed();
      const ids = listener.received.map((request) => String(request.headers['x-service-event-id']));
      expect(ids).toHaveLength(eventCount);
      expect([...ids].sort()).toEqual(eventIds);
      // In lane order: the delivering attempts started in the order the events were made.
      const delivering = await store.db.selectFrom('event_attempts').select('event_id').where('app_id', '=', app.id).where('outcome', '=', 'delivered').orderBy('id').execute();
      expect(delivering.map((attempt) => attempt.event_id)).toEqual(eventIds);
    });
  });
}
