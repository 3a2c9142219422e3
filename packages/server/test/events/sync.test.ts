import type { AnyEvent } from '@aviary/protocol';
import { verifyWidgetRequest } from '@aviary/sdk';
import { jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAppEvents, listEventAttempts, replayEvent } from '../../src/events/history/eventHistory.js';
import { deliverSynchronously } from '../../src/events/delivery/sync.js';
import { buildWidgetUrl } from '../../src/core/widgetUrl.js';
import { dialects } from '../helpers/dialects.js';
import { allowOrigins } from '../helpers/origins.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closedPortUrl, startListener, type Responder, type TestListener } from '../helpers/listener.js';

for (const dialect of dialects) {
  describe(`synchronous delivery and widget URLs [${dialect}]`, () => {
    let t: TestServer;
    const listeners: TestListener[] = [];

    beforeAll(async () => {
      t = await startTestServer(dialect, {}, { events: { pollIntervalMs: 50 } });
    });
    afterAll(async () => {
      await stopTestServer(t);
    });
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    async function app(listenerUrl: string | null) {
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      return { app: await t.f.app(team.id, developer.id, { listenerUrl }), user: developer };
    }
    async function appWithListener(respond: Responder) {
      const listener = await startListener(respond);
      listeners.push(listener);
      return { listener, ...(await app(listener.url)) };
    }

    it('returns the listener’s answer and records the attempt, with the user token redacted', async () => {
      const { listener, app: a, user } = await appWithListener(() => ({ status: 200, body: '{"text":"done"}' }));
      const event = { name: 'app.install', userId: user.id, token: 'au_secret', userToken: 'au_secret' } as const;
      const result = await deliverSynchronously(t.server.ctx, { appId: a.id, userId: user.id, event, timeoutMs: 2_000 });
      expect(result).toEqual({ ok: true, status: 200, body: { text: 'done' }, eventId: expect.stringMatching(/^ev_/) });
      const [request] = listener.received;
      expect(request.body).toEqual(event);
      expect(request.headers['x-service-event-id']).toBe(result.eventId);
      expect(request.headers['x-service-retry-num']).toBe('0');
      const { payload } = await jwtVerify(String(request.headers['x-service-event-token']), new TextEncoder().encode(a.secret));
      expect(payload).toMatchObject({ appId: a.id, userId: user.id, jti: result.eventId });

      const [summary] = await listAppEvents(t.server.ctx.db, a.id, {});
      expect(summary).toMatchObject({ id: result.eventId, synchronous: true, status: 'delivered', event: { token: '[redacted]', userToken: '[redacted]' } });
      const attempts = await listEventAttempts(t.server.ctx.db, result.eventId);
      expect(attempts).toMatchObject([{ retryNum: 0, status: 200, outcome: 'delivered', responseSnippet: '{"text":"done"}' }]);
      await expect(replayEvent(t.server.ctx, a.id, result.eventId)).rejects.toMatchObject({ code: 'InvalidParameter' });
    });

    it('reports an error status as http_error, without retrying', async () => {
      const { listener, app: a, user } = await appWithListener(() => ({ status: 503, body: 'down' }));
      const result = await deliverSynchronously(t.server.ctx, { appId: a.id, userId: user.id, event: { name: 'client.pressButton', userId: user.id } as AnyEvent, timeoutMs: 2_000 });
      expect(result).toMatchObject({ ok: false, reason: 'http_error', status: 503 });
      // The worker has done all it would do now: a retry would have reached the listener.
      await t.server.ctx.events.idle();
      expect(listener.received).toHaveLength(1);
      expect(await listEventAttempts(t.server.ctx.db, result.eventId)).toMatchObject([{ status: 503, outcome: 'failed', reason: 'http_error', responseSnippet: 'down' }]);
    });

    it('gives up after timeoutMs', async () => {
      const { app: a, user } = await appWithListener(() => 'hang');
      // The listener never answers: that the call returns at all, as a time-out, is the point (how soon is not asserted).
      const result = await deliverSynchronously(t.server.ctx, { appId: a.id, userId: user.id, event: { name: 'chat.generateUrlPreview', userId: user.id } as AnyEvent, timeoutMs: 200 });
      expect(result).toMatchObject({ ok: false, reason: 'timeout' });
      expect(await listEventAttempts(t.server.ctx.db, result.eventId)).toMatchObject([{ status: null, outcome: 'failed', reason: 'timeout' }]);
    });

    it('reports a refused connection and an app without a listener', async () => {
      const refused = await app(await closedPortUrl());
      const event = { name: 'client.slashCommand', userId: refused.user.id } as AnyEvent;
      expect(await deliverSynchronously(t.server.ctx, { appId: refused.app.id, userId: refused.user.id, event, timeoutMs: 2_000 })).toMatchObject({
        ok: false,
        reason: 'connection_failed',
      });
      const none = await app(null);
      const result = await deliverSynchronously(t.server.ctx, { appId: none.app.id, userId: none.user.id, event, timeoutMs: 2_000 });
      expect(result).toMatchObject({ ok: false, reason: 'no_listener' });
      expect(await listEventAttempts(t.server.ctx.db, result.eventId)).toMatchObject([{ outcome: 'failed', reason: 'no_listener' }]);
    });

    it('builds a widget URL whose token the SDK verifies and which lives 24 hours', async () => {
      const { app: a, user } = await app(null);
      await allowOrigins(t.server.ctx.db, a.id, ['https://widget.example.test']);
      const event = { name: 'client.pressButton', userId: user.id, userName: 'Pat', chat: user.id, chatName: 'Pat', button: 'chatTabButton' } as const;
      const url = await buildWidgetUrl(t.server.ctx, { appId: a.id, url: 'https://widget.example.test/panel?lang=en', route: 'widget', event, client: 'desktop', widgetType: 'sidebar' });
      const parsed = new URL(url);
      expect(parsed.origin + parsed.pathname).toBe('https://widget.example.test/panel');
      expect(parsed.searchParams.get('lang')).toBe('en');
      expect(JSON.parse(parsed.searchParams.get('serviceEvent')!)).toEqual(event);
      expect(parsed.searchParams.get('serviceClient')).toBe('desktop');
      expect(parsed.searchParams.get('serviceWidgetType')).toBe('sidebar');
      const verified = await verifyWidgetRequest(url, { appId: a.id, appSecret: a.secret });
      expect(verified).toMatchObject({ event, claims: { appId: a.id, userId: user.id } });
      const { payload } = await jwtVerify(parsed.searchParams.get('serviceEventToken')!, new TextEncoder().encode(a.secret));
      expect(payload.exp! - payload.iat!).toBe(24 * 3600);
    });
  });
}
