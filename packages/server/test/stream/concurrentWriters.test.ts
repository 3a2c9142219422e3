import type { StreamDataFrame } from '@aviary/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config.js';
import { createChannel } from '../../src/core/commands/channels.js';
import type { UsersTable } from '../../src/store/schema.js';
import { sessionFor, type SignedIn } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { redisAvailable, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis.js';
import { restartOnSameStore, startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { closeStreams, messageWithText, openStream, type StreamClient } from './harness.js';

const writers = 16;
const perWriter = 12;
const generous = { message: { rate: 10_000, burst: 10_000 }, messagePerRecipient: { rate: 10_000, burst: 10_000 } };

/** A reader's frames over every connection it opened, in the order they came. */
class Reader {
  readonly connections: StreamClient[] = [];

  /** Opens the stream on `server`, resuming after the last cursor seen when there was a connection before. */
  async open(server: TestServer, person: SignedIn): Promise<void> {
    // Closed first: nothing after the cursor it resumes from can come on the old connection.
    const last = this.connections.at(-1);
    await last?.close();
    const cursor = last?.cursor();
    this.connections.push(await openStream(server, person, cursor === undefined ? {} : { cursor }));
  }

  data(): StreamDataFrame[] {
    return this.connections.flatMap((connection) => connection.data());
  }

  texts(): string[] {
    return this.data().flatMap((frame) => (frame.type === 'message.created' ? [frame.message.text] : []));
  }

  /** Resolves once the current connection has received `count` messages more than all connections before. */
  async reached(count: number): Promise<void> {
    const current = this.connections.at(-1)!;
    const before = this.texts().length - current.data().filter((frame) => frame.type === 'message.created').length;
    let seen = 0;
    await current.waitFor((frame) => frame.type === 'message.created' && ++seen + before >= count);
  }
}

/**
 * PostgreSQL: two servers on one store, as two processes are; they hear each other through Redis when it
 * runs, and otherwise find the other's entries by looking at the store every 200 ms. SQLite serves one
 * process (two in one test process would wait on each other's write lock with the event loop blocked):
 * there, "the other server" is the same one.
 */
describe.each(dialects)('[%s] the stream under 16 concurrent writers', (dialect) => {
  const servers: TestServer[] = [];

  beforeAll(async () => {
    const config: ConfigInput = {
      rateLimits: generous,
      stream: { catchUpMs: 200 },
      ...(redisAvailable ? { redisUrl: redisTestUrl, redisKeyPrefix: uniqueRedisPrefix() } : {}),
    };
    servers.push(await startTestServer(dialect, config));
    servers.push(dialect === 'postgres' ? await restartOnSameStore(servers[0], config) : servers[0]);
  });
  afterAll(async () => {
    await closeStreams();
    if (servers[1] && servers[1] !== servers[0]) await servers[1].server.close();
    if (servers[0]) await stopTestServer(servers[0]);
  });

  it('brings every reader every message once, in one order, though readers resume mid-run on the other server', async () => {
    const [one, two] = servers;
    const team = await one.f.team();
    const people: UsersTable[] = [];
    for (let i = 0; i < writers + 3; i++) people.push(await one.f.person(team.id, { firstName: `P${i}` }));
    const { channel } = await createChannel(one.server.ctx, { user: people[0], appId: null }, { name: 'crowd', members: people.slice(1).map((person) => person.id) });
    const on = async (server: TestServer, index: number) => sessionFor(server, people[index]);
    const readerIndexes = [writers, writers + 1, writers + 2];
    const readers = readerIndexes.map(() => new Reader());

    // One reader stays on server one; the other two start on one each and move across mid-run.
    await readers[0].open(one, await on(one, readerIndexes[0]));
    await readers[1].open(one, await on(one, readerIndexes[1]));
    await readers[2].open(two, await on(two, readerIndexes[2]));

    const total = writers * perWriter;
    const sending = Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const server = servers[w % 2];
        const sender = await on(server, w);
        for (let k = 0; k < perWriter; k++) expect((await sender.call('chat.sendFromComposer', { to: channel.id, text: `w${w}-${k}` })).status).toBe(200);
      }),
    );
    const moving = (async () => {
      await readers[1].reached(total / 4);
      await readers[1].open(two, await on(two, readerIndexes[1]));
      await readers[2].reached(total / 3);
      await readers[2].open(one, await on(one, readerIndexes[2]));
      await readers[1].reached(total / 2);
      await readers[1].open(one, await on(one, readerIndexes[1]));
    })();
    await Promise.all([sending, moving]);
    // Sent after every other message has committed, so it comes last in every reader's stream.
    expect((await (await on(two, 0)).call('chat.sendFromComposer', { to: channel.id, text: 'end' })).status).toBe(200);
    await Promise.all(readers.map((reader) => reader.connections.at(-1)!.waitFor(messageWithText('end'))));

    const sent = Array.from({ length: writers }, (_, w) => Array.from({ length: perWriter }, (__, k) => `w${w}-${k}`));
    const first = readers[0].texts();
    expect(first).toHaveLength(total + 1);
    expect([...first].sort()).toEqual([...sent.flat(), 'end'].sort());
    for (const [w, texts] of sent.entries()) expect(first.filter((text) => text.startsWith(`w${w}-`))).toEqual(texts);
    for (const reader of readers) {
      expect(reader.texts()).toEqual(first);
      const cursors = reader.data().map((frame) => Number(frame.cursor));
      expect(cursors.every((cursor, i) => i === 0 || cursor > cursors[i - 1])).toBe(true);
    }
    expect(readers[1].connections).toHaveLength(3);
    expect(readers[2].connections).toHaveLength(2);
  }, 120_000);
});
