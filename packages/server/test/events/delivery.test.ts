import type { AnyEvent } from '@aviary/protocol';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventListener, type EventContext } from '@aviary/sdk';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { listAppEvents, listEventAttempts, replayEvent } from '../../src/events/history/eventHistory.js';
import { deliverSynchronously } from '../../src/events/delivery/sync.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closedPortUrl, fakeClock, gate, startListener, type Responder, type TestListener } from '../helpers/listener.js';

for (const dialect of dialects) {
  describe(`asynchronous event delivery [${dialect}]`, () => {
    const clock = fakeClock();
    let t: TestServer;
    const listeners: TestListener[] = [];

    beforeAll(async () => {
      // The answer time-out is short, so that the hanging listeners' tests are quick, yet long enough for a
      // listener's instant answer to arrive on a machine busy with the other test files.
      t = await startTestServer(dialect, {}, { now: clock.now, events: { answerTimeoutMs: 1_000, leaseMs: 5_000, pollIntervalMs: 50 } });
    });
    afterAll(async () => {
      await stopTestServer(t);
    });
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    async function appWithListener(respond?: Responder) {
      const listener = await startListener(respond);
      listeners.push(listener);
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const user = await t.f.person(team.id);
      const app = await t.f.app(team.id, developer.id, { listenerUrl: listener.url });
      return { listener, app, user };
    }

    async function enqueue(appId: string, userId: string, extra: Record<string, unknown> = {}) {
      const event = { name: 'app.uninstall', userId, ...extra } as AnyEvent;
      const { eventId } = (await enqueueEvent(t.server.ctx.db, { appId, userId, event }, clock.now()))!;
      t.server.ctx.events.wake();
      return { eventId, event };
    }

    const advance = (ms: number) => {
      clock.advance(ms);
      t.server.ctx.events.wake();
    };
    const eventRow = (id: string) => t.server.ctx.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const appRow = (id: string) => t.server.ctx.db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // Everything due at the clock's time has been sent and recorded: what the listener has is all it gets.
    const nothingMoreDue = () => t.server.ctx.events.idle();
    /** The event's row once the worker has done all it would do now; `check` must hold for it. */
    const settled = async (id: string, check: (row: Awaited<ReturnType<typeof eventRow>>) => boolean) => {
      await nothingMoreDue();
      const row = await eventRow(id);
      expect(check(row) && row.claim_token === null, JSON.stringify(row)).toBe(true);
      return row;
    };

    it('delivers an event once, with the headers and a token signed with the app secret', async () => {
      const { listener, app, user } = await appWithListener();
      const { eventId, event } = await enqueue(app.id, user.id);
      const [request] = await listener.waitFor(1);
      expect(request.body).toEqual(event);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Aviary-Events/1');
      expect(request.headers['x-service-event-id']).toBe(eventId);
      expect(request.headers['x-service-retry-num']).toBe('0');
      expect(request.headers['x-service-retry-reason']).toBeUndefined();

      const token = String(request.headers['x-service-event-token']);
      expect(decodeProtectedHeader(token).alg).toBe('HS256');
      const { payload } = await jwtVerify(token, new TextEncoder().encode(app.secret), { algorithms: ['HS256'], currentDate: new Date(clock.now()) });
      expect(payload).toMatchObject({ appId: app.id, userId: user.id, jti: eventId });
      expect(payload.exp! - payload.iat!).toBe(600);
      expect(payload.iat).toBe(Math.floor(clock.now() / 1000));

      const row = await settled(eventId, (r) => r.status === 'delivered');
      expect(row.delivered_at).toBe(clock.now());
      advance(2 * 24 * 3600_000);
      await nothingMoreDue();
      expect(listener.received).toHaveLength(1);
    });

    it('is accepted by the SDK listener, which sees the event id and retry number', async () => {
      const seen: EventContext[] = [];
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const user = await t.f.person(team.id);
      const app = await t.f.app(team.id, developer.id);
      const sdkListener = createEventListener({
        appId: app.id,
        appSecret: app.secret,
        now: clock.now,
        on: { 'app.uninstall': (_event, ctx) => void seen.push(ctx) },
      });
      const server = createServer(sdkListener.node);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        await t.server.ctx.db.updateTable('apps').set({ listener_url: url }).where('id', '=', app.id).execute();
        const { eventId } = await enqueue(app.id, user.id);
        await settled(eventId, (r) => r.status === 'delivered');
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ eventId, retryNum: 0, claims: { appId: app.id, userId: user.id, jti: eventId } });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('retries a 500 on the ladder with the same id, a rising retry number and a fresh token', async () => {
      const { listener, app, user } = await appWithListener((_request, index) => (index < 2 ? { status: 500, body: 'x'.repeat(3000) } : { status: 200, body: '{"ok":true}' }));
      const { eventId } = await enqueue(app.id, user.id);
      await listener.waitFor(1);
      const first = await settled(eventId, (r) => r.retry_num === 1);
      const failedAt = clock.now();
      // The event waits for its listener, which is tried again about 10 s (±20 %) later, never sooner than 8 s.
      expect(first).toMatchObject({ status: 'pending', last_reason: 'http_error', next_attempt_at: null });
      const backingOff = await appRow(app.id);
      expect(backingOff.listener_retry_step).toBe(1);
      expect(backingOff.listener_retry_at! - failedAt).toBeGreaterThanOrEqual(8_000);
      expect(backingOff.listener_retry_at! - failedAt).toBeLessThanOrEqual(12_000);
      expect((await listAppEvents(t.server.ctx.db, app.id, {}))[0].nextAttemptAt).toBe(backingOff.listener_retry_at);
      advance(7_900);
      await nothingMoreDue();
      expect(listener.received).toHaveLength(1);

      advance(4_200);
      const [, second] = await listener.waitFor(2);
      expect(second.headers['x-service-event-id']).toBe(eventId);
      expect(second.headers['x-service-retry-num']).toBe('1');
      expect(second.headers['x-service-retry-reason']).toBe('http_error');
      expect(second.headers['x-service-event-token']).not.toBe(listener.received[0].headers['x-service-event-token']);
      await settled(eventId, (r) => r.retry_num === 2);
      // About 1 minute this time.
      const afterSecond = await appRow(app.id);
      expect(afterSecond.listener_retry_step).toBe(2);
      expect(afterSecond.listener_retry_at! - clock.now()).toBeGreaterThanOrEqual(48_000);
      expect(afterSecond.listener_retry_at! - clock.now()).toBeLessThanOrEqual(72_000);

      advance(72_000);
      const [, , third] = await listener.waitFor(3);
      expect(third.headers['x-service-retry-num']).toBe('2');
      expect(third.headers['x-service-event-id']).toBe(eventId);
      await settled(eventId, (r) => r.status === 'delivered');

      const attempts = await listEventAttempts(t.server.ctx.db, eventId);
      expect(attempts.map((a) => [a.retryNum, a.status, a.outcome, a.reason])).toEqual([
        [0, 500, 'retry', 'http_error'],
        [1, 500, 'retry', 'http_error'],
        [2, 200, 'delivered', null],
      ]);
      expect(attempts[0].responseSnippet).toBe('x'.repeat(1024));
      expect(attempts[0].error).toMatch(/HTTP 500/);
      expect(attempts[0].startedAt).toBe(failedAt);
      expect(attempts[2].responseSnippet).toBe('{"ok":true}');
      for (const attempt of attempts) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('retries a listener that does not answer in time, as a time-out', async () => {
      const { listener, app, user } = await appWithListener((_request, index) => (index === 0 ? 'hang' : { status: 200 }));
      const { eventId } = await enqueue(app.id, user.id);
      const row = await settled(eventId, (r) => r.retry_num === 1);
      expect(row.last_reason).toBe('timeout');
      const [attempt] = await listEventAttempts(t.server.ctx.db, eventId);
      expect(attempt).toMatchObject({ status: null, reason: 'timeout', outcome: 'retry' });
      expect(attempt.durationMs).toBeGreaterThanOrEqual(950);
      advance(12_500);
      const [, retry] = await listener.waitFor(2);
      expect(retry.headers).toMatchObject({ 'x-service-event-id': eventId, 'x-service-retry-num': '1', 'x-service-retry-reason': 'timeout' });
      await settled(eventId, (r) => r.status === 'delivered');
    });

    it('retries a refused connection, as connection_failed', async () => {
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const app = await t.f.app(team.id, developer.id, { listenerUrl: await closedPortUrl() });
      const { eventId } = await enqueue(app.id, developer.id);
      await settled(eventId, (r) => r.retry_num === 1);
      const [attempt] = await listEventAttempts(t.server.ctx.db, eventId);
      expect(attempt).toMatchObject({ status: null, reason: 'connection_failed', outcome: 'retry' });
      expect(attempt.error).toMatch(/ECONNREFUSED/);

      const listener = await startListener();
      listeners.push(listener);
      await t.server.ctx.db.updateTable('apps').set({ listener_url: listener.url }).where('id', '=', app.id).execute();
      advance(12_500);
      const [retry] = await listener.waitFor(1);
      expect(retry.headers).toMatchObject({ 'x-service-event-id': eventId, 'x-service-retry-num': '1', 'x-service-retry-reason': 'connection_failed' });
    });

    it('does not retry a 400, a 404, or an answer with X-Service-No-Retry: 1', async () => {
      const { listener, app, user } = await appWithListener((request) =>
        request.body.answer === 'noRetry' ? { status: 503, headers: { 'X-Service-No-Retry': '1' } } : { status: Number(request.body.answer) },
      );
      const events = [await enqueue(app.id, user.id, { answer: '400' }), await enqueue(app.id, user.id, { answer: '404' }), await enqueue(app.id, user.id, { answer: 'noRetry' })];
      for (const { eventId } of events) await settled(eventId, (r) => r.status === 'failed');
      advance(24 * 3600_000);
      await nothingMoreDue();
      expect(listener.received).toHaveLength(3);
      const attempts = await Promise.all(events.map(({ eventId }) => listEventAttempts(t.server.ctx.db, eventId)));
      expect(attempts.map((list) => list.map((a) => [a.status, a.outcome]))).toEqual([[[400, 'failed']], [[404, 'failed']], [[503, 'failed']]]);
      expect(attempts[2][0].error).toMatch(/X-Service-No-Retry/);
    });

    it('honours Retry-After on a 429', async () => {
      const { listener, app, user } = await appWithListener((_request, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': '120' } } : { status: 200 }));
      const { eventId } = await enqueue(app.id, user.id);
      const row = await settled(eventId, (r) => r.retry_num === 1);
      expect((await appRow(app.id)).listener_retry_at).toBe(clock.now() + 120_000);
      expect(row.last_reason).toBe('rate_limited');
      advance(100_000);
      await nothingMoreDue();
      expect(listener.received).toHaveLength(1);
      advance(20_000);
      const [, retry] = await listener.waitFor(2);
      expect(retry.headers['x-service-retry-reason']).toBe('rate_limited');
    });

    it('replays a delivered event with the same id and retry number 0', async () => {
      const { listener, app, user } = await appWithListener();
      const { eventId } = await enqueue(app.id, user.id);
      await settled(eventId, (r) => r.status === 'delivered');
      await replayEvent(t.server.ctx, app.id, eventId);
      const [first, replay] = await listener.waitFor(2);
      expect(replay.headers['x-service-event-id']).toBe(eventId);
      expect(replay.headers['x-service-retry-num']).toBe('0');
      expect(replay.body).toEqual(first.body);
      await settled(eventId, (r) => r.status === 'delivered');
      expect((await listEventAttempts(t.server.ctx.db, eventId)).map((a) => a.retryNum)).toEqual([0, 0]);
      await expect(replayEvent(t.server.ctx, app.id, 'ev_unknown')).rejects.toMatchObject({ code: 'InvalidParameter', context: { parameter: 'eventId' } });
    });

    it('lets a synchronous event wait its own time-out, longer than the worker’s', async () => {
      const answer = gate();
      const { listener, app, user } = await appWithListener(() => ({ status: 200, body: '{}', after: answer.opened }));
      const sent = deliverSynchronously(t.server.ctx, { appId: app.id, userId: user.id, event: { name: 'app.install', userId: user.id } as AnyEvent, timeoutMs: 10_000 });
      await listener.waitFor(1);
      // While the synchronous event waits for its answer, an event to a listener that never answers
      // starts and runs out of the worker's time: the synchronous one has waited longer than that.
      const hung = await appWithListener(() => 'hang');
      const { eventId } = await enqueue(hung.app.id, hung.user.id);
      await hung.listener.waitFor(1);
      expect(await settled(eventId, (r) => r.retry_num === 1)).toMatchObject({ last_reason: 'timeout' });
      answer.open();
      expect(await sent).toMatchObject({ ok: true, status: 200 });
    });

    it('lists an app’s events newest first, by page and by status', async () => {
      const { app, user } = await appWithListener((request) => ({ status: request.body.fail ? 400 : 200 }));
      const a = await enqueue(app.id, user.id);
      const b = await enqueue(app.id, user.id, { fail: true });
      const c = await enqueue(app.id, user.id);
      for (const { eventId } of [a, b, c]) await settled(eventId, (r) => r.status !== 'pending');
      const { db } = t.server.ctx;
      const page = await listAppEvents(db, app.id, { limit: 2 });
      expect(page.map((e) => e.id)).toEqual([c.eventId, b.eventId]);
      expect(page[1]).toMatchObject({ status: 'failed', name: 'app.uninstall', userId: user.id, synchronous: false, event: b.event, lastReason: 'http_error' });
      expect((await listAppEvents(db, app.id, { before: b.eventId })).map((e) => e.id)).toEqual([a.eventId]);
      expect((await listAppEvents(db, app.id, { status: 'failed' })).map((e) => e.id)).toEqual([b.eventId]);
      expect(await listAppEvents(db, app.id, { status: 'paused' })).toEqual([]);
      await expect(listAppEvents(db, app.id, { status: 'lost' })).rejects.toMatchObject({ code: 'InvalidParameter' });
    });
  });
}
