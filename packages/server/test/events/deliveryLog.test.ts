import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installApp } from '../../src/core/commands/installs.js';
import { resumeAppDelivery } from '../../src/events/history/eventHistory.js';
import { createLog } from '../../src/log.js';
import { closedPortUrl, fakeClock, type Responder, type TestListener } from '../helpers/listener.js';
import { captureLog, logLevels, type LogLine } from '../helpers/logs.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { appAtListener } from './appAtListener.js';
import { cliActor } from '../../src/core/audit/record.js';

const day = 24 * 3600_000;

// What is logged does not depend on the store, so one dialect is enough.
describe('the delivery log', () => {
  const clock = fakeClock();
  const log = captureLog();
  let t: TestServer;
  const listeners: TestListener[] = [];

  beforeAll(async () => {
    t = await startTestServer(
      'sqlite',
      {},
      { now: clock.now, log: createLog({ logLevel: 'info' }, log.destination), events: { answerTimeoutMs: 300, leaseMs: 5_000, pollIntervalMs: 50, listenerProbeIntervalMs: 60_000 } },
    );
  });
  afterAll(async () => {
    await stopTestServer(t);
    for (const listener of listeners) await listener.close();
  });

  async function appAt(respond: Responder | string) {
    const { app, listener, developer, send } = await appAtListener(t, listeners, respond);
    return { app, listener, developer, send: async () => (await send(1))[0] };
  }

  const about = (appId: string, msg: RegExp) => (line: LogLine) => line.appId === appId && msg.test(line.msg);
  const attemptOf = (eventId: string) => t.server.ctx.db.selectFrom('event_attempts').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();

  it('warns of a refused event with the status and the start of the answer, naming the app, the event and the attempt', async () => {
    const { app, send } = await appAt(() => ({ status: 400, body: `no thanks: ${'x'.repeat(500)}` }));
    const eventId = await send();
    const line = await log.waitFor(about(app.id, /refused/));
    const attempt = await attemptOf(eventId);
    expect(line).toMatchObject({ level: logLevels.warn, appId: app.id, eventId, attemptId: attempt.id, status: 400, fate: 'failed', retryNum: 0 });
    expect(line.answer).toBe(`no thanks: ${'x'.repeat(189)}`);
    expect(line.msg).toBe('event refused by the listener (HTTP 400); failed for good');
    expect(line.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('tells of a delivery with its latency, and of a listener that answers again with how many events it released', async () => {
    let up = false;
    const { app, listener, send } = await appAt(() => ({ status: up ? 200 : 503 }));
    const waiting = await send();
    const refused = await log.waitFor(about(app.id, /refused/));
    expect(refused).toMatchObject({ level: logLevels.warn, eventId: waiting, status: 503, fate: 'held' });
    const scheduled = await log.waitFor(about(app.id, /retry scheduled/));
    const { listener_retry_at } = await t.server.ctx.db.selectFrom('apps').select('listener_retry_at').where('id', '=', app.id).executeTakeFirstOrThrow();
    const retryAt = new Date(listener_retry_at!).toISOString();
    expect(scheduled).toMatchObject({ level: logLevels.info, eventId: waiting, step: 1, retryAt });
    // The refused event's own line says when it is tried next: its listener's retry.
    expect(refused).toMatchObject({ nextAttemptAt: retryAt, msg: `event refused by the listener (HTTP 503); waits for the listener, tried next at ${retryAt}` });

    up = true;
    const fresh = await send();
    const delivered = await log.waitFor((line) => line.eventId === fresh && /delivered/.test(line.msg));
    expect(delivered).toMatchObject({ level: logLevels.info, appId: app.id, status: 200, attemptId: (await attemptOf(fresh)).id });
    expect(delivered.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await log.waitFor(about(app.id, /answered again/))).toMatchObject({ level: logLevels.info, eventId: fresh, released: 1 });
    await listener.waitFor(3);
  });

  it('warns of an unreachable listener with the reason, then tells of the pause after 3 days and of the resume', async () => {
    const { app, send } = await appAt(await closedPortUrl());
    const eventId = await send();
    const unreachable = await log.waitFor(about(app.id, /unreachable/));
    expect(unreachable).toMatchObject({ level: logLevels.warn, eventId, reason: 'connection_failed', fate: 'held' });
    expect(unreachable.error).toMatch(/ECONNREFUSED/);

    clock.advance(3 * day + 60_000);
    t.server.ctx.events.wake();
    expect(await log.waitFor(about(app.id, /paused/))).toMatchObject({ level: logLevels.info, eventId });
    await resumeAppDelivery(t.server.ctx, app.id);
    expect(await log.waitFor(about(app.id, /resumed/))).toMatchObject({ level: logLevels.info, released: 1 });
  });

  it('warns of a synchronous event the listener refused (an install), which is never retried', async () => {
    const { app, listener, developer } = await appAt(() => ({ status: 403, body: 'not for your team' }));
    await expect(installApp(t.server.ctx, cliActor, { appId: app.id, userId: developer.id })).rejects.toMatchObject({ code: 'InstallFailed' });
    const line = await log.waitFor(about(app.id, /synchronous/));
    const [event] = await t.server.ctx.db.selectFrom('events').select('id').where('app_id', '=', app.id).execute();
    expect(line).toMatchObject({ level: logLevels.warn, appId: app.id, eventId: event.id, event: 'app.install', status: 403, reason: 'http_error', synchronous: true });
    expect(line.msg).toBe('synchronous event refused by the listener (HTTP 403); not retried');
    expect(listener.received).toHaveLength(1);

    const unreachable = await appAt(await closedPortUrl());
    await expect(installApp(t.server.ctx, cliActor, { appId: unreachable.app.id, userId: unreachable.developer.id })).rejects.toMatchObject({ code: 'InstallFailed' });
    expect(await log.waitFor(about(unreachable.app.id, /synchronous/))).toMatchObject({ level: logLevels.warn, reason: 'connection_failed', event: 'app.install' });
  });

  it('never logs an app secret, a signed token or a listener URL', async () => {
    await t.server.ctx.events.idle();
    const apps = await t.server.ctx.db.selectFrom('apps').select(['secret', 'listener_url']).execute();
    const tokens = listeners.flatMap((listener) => listener.received.map((request) => String(request.headers['x-service-event-token'])));
    expect(tokens.length).toBeGreaterThan(0);
    const written = log.text();
    for (const secret of [...apps.map((app) => app.secret), ...apps.map((app) => app.listener_url!), ...tokens]) expect(written).not.toContain(secret);
  });
});
