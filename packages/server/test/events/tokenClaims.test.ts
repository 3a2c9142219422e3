import type { AnyEvent } from '@aviary/protocol';
import { createHash } from 'node:crypto';
import { jwtVerify, type JWTPayload } from 'jose';
import { afterEach, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { deliverSynchronously } from '../../src/events/delivery/sync.js';
import { buildWidgetUrl } from '../../src/core/widgetUrl.js';
import { allowOrigins } from '../helpers/origins.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { startListener, type TestListener } from '../helpers/listener.js';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64url');

/**
 * The check the official third-party SDKs make, and nothing more: an HS256 signature with the app
 * secret, and the `userId` claim. The added claims must not disturb it.
 */
async function verifyLikeOfficialSdks(token: string, secret: string, userId: string): Promise<JWTPayload> {
  const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
  expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
  expect(payload.userId).toBe(userId);
  return payload;
}

const claimNames = ['appId', 'exp', 'iat', 'jti', 'route', 'sha256', 'userId'];

forEachDialect(
  'event tokens name their route and the digest of what they vouch for',
  (t) => {
    const listeners: TestListener[] = [];
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    async function cast(server: TestServer) {
      const listener = await startListener();
      listeners.push(listener);
      const team = await server.f.team();
      const developer = await server.f.person(team.id);
      const user = await server.f.person(team.id);
      const app = await server.f.app(team.id, developer.id, { listenerUrl: listener.url });
      return { listener, app, user };
    }

    it('an asynchronous delivery carries a listener token for exactly the bytes sent', async () => {
      const { listener, app, user } = await cast(t());
      // Not ASCII, so that the digest is plainly of the UTF-8 bytes.
      const event = { name: 'chat.receiveMessage', userId: user.id, message: { uid: 'm1', text: 'héllo ✓ 🐦' } } as AnyEvent;
      const { eventId } = (await enqueueEvent(t().server.ctx.db, { appId: app.id, userId: user.id, event }, Date.now()))!;
      t().server.ctx.events.wake();
      const [request] = await listener.waitFor(1);
      const payload = await verifyLikeOfficialSdks(String(request!.headers['x-service-event-token']), app.secret, user.id);
      expect(Object.keys(payload).sort()).toEqual(claimNames);
      expect(payload).toMatchObject({ appId: app.id, userId: user.id, jti: eventId, route: 'listener', sha256: sha256(request!.raw) });
      expect(request!.body).toEqual(event);
    });

    it('a synchronous delivery carries a listener token for exactly the bytes sent', async () => {
      const { listener, app, user } = await cast(t());
      const event = { name: 'client.slashCommand', userId: user.id, command: 'ship', text: 'à bientôt' } as AnyEvent;
      const result = await deliverSynchronously(t().server.ctx, { appId: app.id, userId: user.id, event, timeoutMs: 2_000 });
      const [request] = listener.received;
      const payload = await verifyLikeOfficialSdks(String(request!.headers['x-service-event-token']), app.secret, user.id);
      expect(Object.keys(payload).sort()).toEqual(claimNames);
      expect(payload).toMatchObject({ appId: app.id, jti: result.eventId, route: 'listener', sha256: sha256(request!.raw) });
    });

    it('widget and browser URLs carry a token for their route and for exactly the serviceEvent value', async () => {
      const { app, user } = await cast(t());
      await allowOrigins(t().server.ctx.db, app.id, ['https://widgets.example.test']);
      const event = { name: 'client.widgetAction', userId: user.id, userName: 'Zoë', chat: user.id, chatName: 'Zoë & co' } as const;
      const base = { appId: app.id, url: 'https://widgets.example.test/panel?x=1', event, client: 'desktop' as const, widgetType: 'modal' as const };
      for (const [route, url] of [
        ['widget', await buildWidgetUrl(t().server.ctx, { ...base, route: 'widget' })],
        ['browser', await buildWidgetUrl(t().server.ctx, { ...base, route: 'browser', sendContext: true })],
      ] as const) {
        const query = new URL(url).searchParams;
        const payload = await verifyLikeOfficialSdks(query.get('serviceEventToken')!, app.secret, user.id);
        expect(Object.keys(payload).sort()).toEqual(claimNames);
        expect(payload).toMatchObject({ appId: app.id, route, sha256: sha256(query.get('serviceEvent')!) });
        expect(JSON.parse(query.get('serviceEvent')!)).toEqual(event);
      }
      // Without sendContext nothing is signed: the URL is the app's own.
      expect(await buildWidgetUrl(t().server.ctx, { ...base, route: 'browser', sendContext: false })).toBe(base.url);
    });
  },
);
