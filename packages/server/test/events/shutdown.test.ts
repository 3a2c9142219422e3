import { afterEach, describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { dialects } from '../helpers/dialects.js';
import { gate, startListener, type TestListener } from '../helpers/listener.js';
import { startTestServer } from '../helpers/server.js';

/**
 * A server told to stop (SIGTERM in a rolling restart) claims no more events, but the attempts it has in
 * flight finish within the grace: an event the app's listener already holds is recorded as delivered, not
 * given back for another process to send again.
 */
for (const dialect of dialects) {
  describe(`stopping with an attempt in flight [${dialect}]`, () => {
    const listeners: TestListener[] = [];
    afterEach(async () => {
      for (const listener of listeners.splice(0)) await listener.close();
    });

    it('finishes the attempt and records it, so that the event goes out once', async () => {
      const answer = gate();
      const listener = await startListener(() => ({ status: 200, body: '{}', after: answer.opened }));
      listeners.push(listener);
      const t = await startTestServer(dialect, { shutdownGraceMs: 10_000 }, { events: { pollIntervalMs: 50 } });
      const team = await t.f.team();
      const developer = await t.f.person(team.id);
      const app = await t.f.app(team.id, developer.id, { listenerUrl: listener.url });
      const { eventId } = (await enqueueEvent(t.server.ctx.db, { appId: app.id, userId: developer.id, event: { name: 'app.uninstall', userId: developer.id } }, Date.now()))!;
      t.server.ctx.events.wake();
      await listener.waitForOpen(1);

      const closing = t.server.close();
      answer.open();
      await closing;

      const store = t.testStore.reopen();
      try {
        const row = await store.db.selectFrom('events').select(['status', 'claim_token']).where('id', '=', eventId).executeTakeFirstOrThrow();
        const attempts = await store.db.selectFrom('event_attempts').select('id').where('event_id', '=', eventId).execute();
        expect({ status: row.status, claimed: row.claim_token !== null, attempts: attempts.length }).toEqual({ status: 'delivered', claimed: false, attempts: 1 });
        expect(listener.received).toHaveLength(1);
      } finally {
        await store.close();
        await t.testStore.destroy();
      }
    });
  });
}
