import { describe, expect, it } from 'vitest';
import { http } from '../client/harness.js';
import { twoServersOnOneRedis } from './twoProcesses.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisAvailable } from '../helpers/redis.js';
import { followStream, type FollowedStream } from './streams.js';

const password = 'a password for the stream test';

// Several processes share one store only on PostgreSQL, and hear each other only through Redis.
describe.runIf(dialects.includes('postgres') && redisAvailable)('the stream across two server processes on one Redis', () => {
  const streams: FollowedStream[] = [];
  // No looking at the store for entries nobody announced: only the bus can bring the frame in time.
  const two = twoServersOnOneRedis({ catchUpMs: 3_600_000 }, async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });
  const { servers } = two;

  it('brings a message sent through one process to a stream held by the other, through the Redis bus', async () => {
    const f = factories(two.testStore.store.db);
    const team = await f.team();
    const [ann, ben] = [await f.person(team.id, { password }), await f.person(team.id, { password })];
    const [sending, streaming] = servers;
    const signIn = async (email: string | null, url: string) => (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken as string;

    streams.push(await followStream(streaming.url, await signIn(ben.email, streaming.url)));
    const sent = await http(sending.url, 'POST', '/v1/chat.sendFromComposer', {
      json: { to: ben.id, text: 'from the other process' },
      headers: { authorization: `Bearer ${await signIn(ann.email, sending.url)}` },
    });
    expect(sent.status).toBe(200);
    await streams[0].waitForText('from the other process', 10_000);
    expect(streams[0].frames.filter((frame) => frame.type === 'message.created')).toEqual([
      expect.objectContaining({ message: expect.objectContaining({ uid: sent.body.message.uid, from: ann.id }) }),
    ]);
  });
});
