import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { teamWithApp } from '../helpers/factories.js';
import { dialects } from '../helpers/dialects.js';
import { loopbackHosts } from '../helpers/server.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { roomyRateLimits } from '../methods/chat-cast.js';
import { AviaryClient } from '@aviary/sdk';
import type { PlainIds } from '@aviary/protocol';
import { handClock } from './scheduledCast.js';

const MINUTE = 60_000;

/**
 * Scheduled messages are durable and sent exactly once: two server processes on one store (two servers
 * in this test, each with its own store connection) race their passes; a server closed before the time
 * leaves the message to the next one.
 */
for (const dialect of dialects) {
  describe(`scheduled messages across processes [${dialect}]`, () => {
    const clock = handClock();
    let testStore: TestStore;
    const servers: RunningServer[] = [];
    const start = async () => {
      const server = await startServer(
        loadConfig({ port: 0, host: '127.0.0.1', dataDir: testStore.dataDir, logLevel: 'silent', allowedInternalHosts: loopbackHosts, checkResults: true, drainIdleMs: 0, ...roomyRateLimits }, {}),
        { store: testStore.reopen(), now: clock.now },
      );
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      testStore = await createTestStore(dialect);
      // Each server opens its own store; the test's own connection would only compete with them.
      await testStore.store.close();
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await testStore.destroy();
    });

    const sentTexts = async (server: RunningServer, prefix: string) =>
      (await server.ctx.db.selectFrom('messages').select('text').where('text', 'like', `${prefix}%`).execute()).map((row) => row.text).sort();

    // Several processes share a PostgreSQL store (docs/deploy.md); SQLite is one process's.
    it.runIf(dialect === 'postgres')('two processes racing their passes send each message once', async () => {
      const [one, two] = [await start(), await start()];
      const { people } = await teamWithApp(one.ctx.db, 2);
      const client = new AviaryClient<PlainIds>({ baseUrl: one.url, token: people[0].token });
      const expected: string[] = [];
      for (let i = 0; i < 30; i++) {
        const text = `race ${String(i).padStart(2, '0')}`;
        expected.push(text);
        await client.chat.scheduleMessage({ to: people[1].id, text, sendAt: clock.now() + MINUTE });
      }
      clock.advance(MINUTE);
      const sent = await Promise.all([one.scheduled.runOnce(), two.scheduled.runOnce(), one.scheduled.runOnce(), two.scheduled.runOnce()]);
      expect(sent.reduce((a, b) => a + b, 0)).toBe(30);
      expect(await sentTexts(one, 'race ')).toEqual(expected);
      const rows = await one.ctx.db.selectFrom('scheduled_messages').select(['status', 'message_uid']).execute();
      expect(rows.every((row) => row.status === 'sent' && row.message_uid !== null)).toBe(true);
      await one.close();
      await two.close();
    });

    it('a message scheduled before a restart is sent by the server after it', async () => {
      const before = await start();
      const { people } = await teamWithApp(before.ctx.db, 2);
      const client = new AviaryClient<PlainIds>({ baseUrl: before.url, token: people[0].token });
      await client.chat.scheduleMessage({ to: people[1].id, text: 'after the restart', sendAt: clock.now() + MINUTE });
      await before.close();
      clock.advance(MINUTE);
      const after = await start();
      await after.scheduled.runOnce();
      expect(await sentTexts(after, 'after the restart')).toEqual(['after the restart']);
      expect(await after.scheduled.runOnce()).toBe(0);
    });
  });
}
