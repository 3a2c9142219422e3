import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { listAppEvents, resumeAppDelivery } from '../../src/events/history/eventHistory.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { fakeClock, startListener, type TestListener } from '../helpers/listener.js';

const day = 24 * 3600_000;

for (const dialect of dialects) {
  describe(`pausing a failing app [${dialect}]`, () => {
    const clock = fakeClock();
    let t: TestServer;
    const listeners: TestListener[] = [];

    beforeAll(async () => {
      t = await startTestServer(dialect, {}, { now: clock.now, events: { answerTimeoutMs: 300, leaseMs: 5_000, pollIntervalMs: 50 } });
    });
    afterAll(async () => {
      await stopTestServer(t);
    });
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    const db = () => t.server.ctx.db;
    const advance = (ms: number) => {
      clock.advance(ms);
      t.server.ctx.events.wake();
    };
    async function enqueue(appId: string, userId: string, extra: Record<string, unknown> = {}) {
      const { eventId } = (await enqueueEvent(db(), { appId, userId, event: { name: 'app.uninstall', userId, ...extra } }, clock.now()))!;
      t.server.ctx.events.wake();
      return eventId;
    }
    /** The event's row once the worker has done all it would do now, which must be `count` attempts. */
    const attemptsSettled = async (eventId: string, count: number) => {
      await t.server.ctx.events.idle();
      const row = await db().selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
      const attempts = await db().selectFrom('event_attempts').select('id').where('event_id', '=', eventId).execute();
      expect({ attempts: attempts.length, claimed: row.claim_token !== null }).toEqual({ attempts: count, claimed: false });
      return row;
    };
    const appRow = (id: string) => db().selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('pauses after 3 days of failures, tells the developer through the system bot, keeps the events, and resumes', async () => {
      const listener = await startListener(() => ({ status: 500, body: 'broken' }));
      listeners.push(listener);
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const apps = [
        await t.f.app(team.id, developer.id, { name: 'Weather', listenerUrl: listener.url }),
        await t.f.app(team.id, developer.id, { name: 'Tides', listenerUrl: listener.url }),
      ];
      const first = await Promise.all(apps.map((app) => enqueue(app.id, developer.id)));
      for (const eventId of first) await attemptsSettled(eventId, 1);
      expect((await appRow(apps[0].id)).delivery_paused_at).toBeNull();

      advance(3 * day + 60_000);
      for (const eventId of first) await attemptsSettled(eventId, 2);
      for (const app of apps) expect((await appRow(app.id)).delivery_paused_at).toBe(clock.now());

      const teamRow = await db().selectFrom('teams').selectAll().where('id', '=', team.id).executeTakeFirstOrThrow();
      const systemUser = await db().selectFrom('users').selectAll().where('id', '=', teamRow.system_user_id!).executeTakeFirstOrThrow();
      expect(systemUser).toMatchObject({ team_id: team.id, first_name: 'Aviary', last_name: 'System', email: null, bot_app_id: null, role: 'user' });
      const messages = await db()
        .selectFrom('messages')
        .selectAll()
        .where('chat_key', '=', [systemUser.id, developer.id].sort().join('|'))
        .orderBy('uid')
        .execute();
      expect(messages).toHaveLength(2);
      for (const message of messages) {
        expect(message).toMatchObject({ from_user_id: systemUser.id, to_id: developer.id, team_id: team.id });
        expect(message.text).toContain(`after 3 days of failures at ${listener.url}`);
        expect(message.text).toContain('last error: the listener answered HTTP 500');
        expect(message.text).toContain('replay or resume');
      }
      // One notice per app, whichever paused first.
      expect(messages.map((m) => /for (\w+) after/.exec(m.text)?.[1]).sort()).toEqual(['Tides', 'Weather']);

      // Paused: kept, shown as paused, and nothing more is sent, even for new events.
      const later = await enqueue(apps[0].id, developer.id);
      advance(2 * day);
      await t.server.ctx.events.idle();
      expect(listener.received).toHaveLength(4);
      expect((await listAppEvents(db(), apps[0].id, { status: 'paused' })).map((e) => e.id)).toEqual([later, first[0]]);
      expect(await listAppEvents(db(), apps[0].id, { status: 'pending' })).toEqual([]);

      listener.respond = () => ({ status: 200 });
      await resumeAppDelivery(t.server.ctx, apps[0].id);
      await listener.waitFor(6);
      await t.server.ctx.events.idle();
      const delivered = await listAppEvents(db(), apps[0].id, {});
      expect(delivered.map((e) => e.status)).toEqual(['delivered', 'delivered']);
      expect(delivered.map((e) => e.id)).toEqual([later, first[0]]);
      expect(await appRow(apps[0].id)).toMatchObject({ delivery_paused_at: null, delivery_failing_since: null });
      // The other app stays paused until its own resume.
      expect((await appRow(apps[1].id)).delivery_paused_at).not.toBeNull();
      expect((await listAppEvents(db(), apps[1].id, {}))[0].status).toBe('paused');
    });

    it('starts the 3 days afresh after any success', async () => {
      const listener = await startListener((request) => ({ status: request.body.ok ? 200 : 500 }));
      listeners.push(listener);
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const app = await t.f.app(team.id, developer.id, { listenerUrl: listener.url });
      const failing = await enqueue(app.id, developer.id);
      await attemptsSettled(failing, 1);
      expect((await appRow(app.id)).delivery_failing_since).toBe(clock.now());

      advance(2 * day);
      await attemptsSettled(failing, 2);
      // A success releases the waiting event, which fails again at once: a streak of its own, from now.
      await attemptsSettled(await enqueue(app.id, developer.id, { ok: true }), 1);
      await attemptsSettled(failing, 3);
      const afresh = clock.now();
      expect((await appRow(app.id)).delivery_failing_since).toBe(afresh);

      advance(day + 60_000);
      await attemptsSettled(failing, 4);
      expect(await appRow(app.id)).toMatchObject({ delivery_paused_at: null, delivery_failing_since: afresh });
      const teamRow = await db().selectFrom('teams').select('system_user_id').where('id', '=', team.id).executeTakeFirstOrThrow();
      expect(teamRow.system_user_id).toBeNull();
    });
  });
}
