import type { PlainIds } from '@aviary/protocol';
import { AviaryClient } from '@aviary/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { loopbackHosts } from '../helpers/server.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

const previewDomain = 'preview.example.test';
/** Enough that one process's per-token bucket would not let the test's messages through at once. */
const messageCount = 60;
const generous = { rate: 10_000, burst: 10_000 };

// Several servers share one store only on PostgreSQL.
describe.runIf(dialects.includes('postgres'))('three servers on one PostgreSQL store', () => {
  let testStore: TestStore;
  let listener: TestListener;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    testStore = await createTestStore('postgres');
    // A preview request gets a card; anything else (chat.receiveMessage) a plain 200.
    listener = await startListener((request) =>
      request.body?.name === 'chat.generateUrlPreview'
        ? { status: 200, body: JSON.stringify({ id: request.body.messageUid, title: 'A card' }) }
        : { status: 200, body: '{}' },
    );
    const config = loadConfig(
      {
        port: 0,
        dataDir: testStore.dataDir,
        logLevel: 'silent',
        allowedInternalHosts: loopbackHosts,
        rateLimits: { message: generous, messagePerRecipient: generous },
      },
      {},
    );
    for (let i = 0; i < 3; i++) {
      // Each with a store (a connection pool) of its own, as separate processes have, closed with it; every
      // worker polls often, so that all three look at the outbox while events are due.
      servers.push(await startServer(config, { store: testStore.reopen(), migrate: false, events: { pollIntervalMs: 20 } }));
    }
  });
  afterAll(async () => {
    for (const server of servers.splice(0)) await server.close();
    await listener?.close();
    await testStore?.destroy();
  });

  it('delivers each event once and asks for each preview once, whichever server took the message', async () => {
    const f = factories(testStore.store.db);
    const team = await f.team();
    const alice = await f.person(team.id);
    const helper = await f.app(team.id, alice.id, { listenerUrl: listener.url, integrations: { previewDomains: [previewDomain] } });
    const { botUserId } = await f.bot(helper.id);
    await f.install(helper.id, alice.id);
    // Alice writes through an app of her own; the helper hears of each message to its bot (an outbox
    // event, delivered by whichever worker claims it) and is asked for the link's preview (by the
    // process that committed the message, after the commit).
    const writer = await f.app(team.id, alice.id);
    const { token } = await f.install(writer.id, alice.id);

    const uids = await Promise.all(
      Array.from({ length: messageCount }, async (_, i) => {
        const client = new AviaryClient<PlainIds>({ baseUrl: servers[i % servers.length].url, token });
        return (await client.chat.sendMessage({ to: botUserId, text: `see https://${previewDomain}/${i}` })).uid;
      }),
    );

    await listener.waitFor(2 * messageCount, 20_000);
    for (const server of servers) await server.ctx.background.settled();
    // Every answer has come; once each worker is idle, each has recorded its attempts.
    for (const server of servers) await server.ctx.events.idle();
    expect(await testStore.store.db.selectFrom('events').select('id').where('status', '!=', 'delivered').execute()).toEqual([]);
    // Every server stops (an attempt still in flight would be cut off, not hidden) and every connection
    // to the listener closes: whatever was sent has been read, duplicates included.
    for (const server of servers.splice(0)) await server.close();
    await listener.allConnectionsClosed();

    const named = (name: string) => listener.received.filter((request) => request.body.name === name);
    const received = named('chat.receiveMessage');
    expect(received.map((request) => request.body.message.uid).sort()).toEqual([...uids].sort());
    expect(new Set(received.map((request) => request.headers['x-service-event-id'])).size).toBe(messageCount);
    expect(named('chat.generateUrlPreview').map((request) => request.body.messageUid).sort()).toEqual([...uids].sort());
    expect(listener.received).toHaveLength(2 * messageCount);

    const attempts = await testStore.store.db.selectFrom('event_attempts').select('event_id').execute();
    expect(attempts).toHaveLength(2 * messageCount);
    const messages = await testStore.store.db.selectFrom('messages').select(['uid', 'attachments']).where('uid', 'in', uids).execute();
    expect(messages.map((message) => JSON.parse(message.attachments ?? '[]'))).toEqual(
      messages.map((message) => [{ id: message.uid, title: 'A card', appId: helper.id }]),
    );
  });
});
