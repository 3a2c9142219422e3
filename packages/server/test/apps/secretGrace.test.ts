import { eventHeaders } from '@aviary/protocol';
import { afterAll, expect, it } from 'vitest';
import { SECRET_GRACE_MS } from '../../src/core/commands/apps.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { forEachDialect } from '../helpers/server.js';
import { signedInPerson } from './harness.js';

/**
 * A rotated secret's grace period, with the real SDK listener still holding the old secret: it accepts
 * every event (asynchronous and synchronous) by the second token until the period ends, and none after.
 * The server's clock and the listener's move together, ahead of the real time.
 */
let offset = 0;
const now = () => Date.now() + offset;
const listeners: TestListener[] = [];
afterAll(async () => {
  for (const listener of listeners) await listener.close();
});

const previousHeader = eventHeaders.previousToken.toLowerCase();

forEachDialect(
  'developer methods: secret rotation with a grace period',
  (t) => {
    it('signs each event with both secrets during the grace period, and with the new one only after it', async () => {
      const team = await t().f.team();
      const dev = await signedInPerson(t(), team.id);
      const alice = await signedInPerson(t(), team.id);
      const listener = await startListener(answerWithSdk);
      listeners.push(listener);
      const { app } = (await dev.call('apps.create', { name: 'Rotating', listenerUrl: listener.url })).body;
      listener.verifyAs(app.id, app.secret, { now, onError: () => undefined });

      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await listener.waitForVerified(1);
      expect(listener.received[0]!.headers[previousHeader]).toBeUndefined();

      const rotatedAt = now();
      const rotated = (await dev.call('apps.rotateSecret', { appId: app.id })).body;
      expect(rotated.secret).not.toBe(app.secret);
      expect(rotated.previousSecretUntil).toBeGreaterThanOrEqual(rotatedAt + SECRET_GRACE_MS);
      expect((await dev.call('apps.getInfo', { appId: app.id })).body.app.secret).toBe(rotated.secret);

      // Within the grace period the listener with the old secret accepts both kinds of event.
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      const verified = await listener.waitForVerified(3);
      // The uninstall goes out in the background, so it may arrive after the second install.
      expect(verified.map((event) => event.event.name).sort()).toEqual(['app.install', 'app.install', 'app.uninstall']);
      expect(listener.received.slice(1).every((request) => typeof request.headers[previousHeader] === 'string')).toBe(true);

      // After it, the old secret verifies nothing: the event carries the new secret's token alone.
      offset += SECRET_GRACE_MS + 60_000;
      const before = listener.received.length;
      await alice.request('POST', '/v1/apps.uninstall', { appId: app.id });
      const [late] = (await listener.waitFor(before + 1)).slice(before);
      expect(late!.headers[previousHeader]).toBeUndefined();
      expect(listener.verified).toHaveLength(3);

      // The listener given the new secret accepts the next attempt.
      listener.verifyAs(app.id, rotated.secret, { now, onError: () => undefined });
      await alice.request('POST', '/v1/apps.install', { appId: app.id });
      await listener.waitForVerified(4);
    });
  },
  {},
  { now },
);
