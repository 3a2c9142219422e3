import { describe, expect, it } from 'vitest';
import { enqueueEvent } from '../../src/events/outbox/enqueue.js';
import { dialects } from '../helpers/dialects.js';
import { startTestServer, stopTestServer } from '../helpers/server.js';
import { startListener } from '../helpers/listener.js';

for (const dialect of dialects) {
  describe(`one app's hanging listener [${dialect}]`, () => {
    it('holds only its own lane: another app’s events still arrive at once, and shutdown gives the hung claims back', async () => {
      // The hung attempts would time out only after ten minutes: whatever happens in this test happens while they hang.
      const t = await startTestServer(dialect, {}, { events: { answerTimeoutMs: 600_000, leaseMs: 1_200_000, laneConcurrency: 4, pollIntervalMs: 50 } });
      const hanging = await startListener(() => 'hang');
      const healthy = await startListener();
      try {
        const team = await t.f.team();
        const developer = await t.f.person(team.id);
        const stuck = await t.f.app(team.id, developer.id, { listenerUrl: hanging.url });
        const fine = await t.f.app(team.id, developer.id, { listenerUrl: healthy.url });
        const { ctx } = t.server;
        const enqueue = async (appId: string) => {
          await enqueueEvent(ctx.db, { appId, userId: developer.id, event: { name: 'app.uninstall', userId: developer.id } }, ctx.now());
          ctx.events.wake();
        };

        for (let i = 0; i < 20; i++) await enqueue(stuck.id);
        await hanging.waitForOpen(4);

        // Each of the other app's events arrives while the hung app's lane is still full. (How soon:
        // npm run bench measures delivery latency.)
        for (let i = 0; i < 10; i++) {
          await enqueue(fine.id);
          await healthy.waitFor(i + 1);
          expect(hanging.open()).toBe(4);
        }
        // The hung app never has more than its lane's worth in flight, and the rest wait unclaimed.
        expect(hanging.maxOpen()).toBe(4);
        const claimed = await ctx.db.selectFrom('events').select('id').where('app_id', '=', stuck.id).where('claim_token', 'is not', null).execute();
        expect(claimed).toHaveLength(4);

        // Closing abandons the hung attempts: it returns although they would hang for ten minutes more.
        await t.server.close();
        const reopened = t.testStore.reopen();
        try {
          const rows = await reopened.db.selectFrom('events').selectAll().where('app_id', '=', stuck.id).execute();
          expect(rows.every((row) => row.status === 'pending' && row.retry_num === 0 && row.claim_token === null)).toBe(true);
          expect(await reopened.db.selectFrom('event_attempts').select('id').where('app_id', '=', stuck.id).execute()).toHaveLength(0);
        } finally {
          await reopened.close();
        }
      } finally {
        await hanging.close();
        await healthy.close();
        await stopTestServer(t);
      }
    });
  });
}
