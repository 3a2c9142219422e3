import { describe, expect, it } from 'vitest';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisAvailable } from '../helpers/redis.js';
import { followStream, type FollowedStream } from './streams.js';
import { twoServersOnOneRedis } from './twoProcesses.js';

const password = 'a password for the threads test';

// A thread reply, its parent's new summary and a person's reading of it, made through one process, reach a stream held by the other, through Redis.
describe.runIf(dialects.includes('postgres') && redisAvailable)('threads across two server processes', () => {
  const streams: FollowedStream[] = [];
  // No looking at the store for entries nobody announced: only the bus brings the frames in time.
  const two = twoServersOnOneRedis({ catchUpMs: 3_600_000 }, async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  it('brings message.created with threadParent, thread.updated and thread.followUpdated to the other process’s stream', async () => {
    const f = factories(two.testStore.store.db);
    const team = await f.team();
    const [ann, ben] = [await f.person(team.id, { password }), await f.person(team.id, { password })];
    const [changing, streaming] = two.servers;
    const signIn = async (email: string | null, url: string) => (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken as string;
    const caller = (token: string) => async (method: string, json: unknown) => {
      const answer = await http(changing.url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${token}` } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    const annCalls = caller(await signIn(ann.email, changing.url));
    const benCalls = caller(await signIn(ben.email, changing.url));

    streams.push(await followStream(streaming.url, await signIn(ben.email, streaming.url)));
    const { uid: parent } = await annCalls('chat.sendMessage', { to: ben.id, text: 'the parent' });
    const { uid: reply } = await annCalls('chat.sendMessage', { to: ben.id, text: 'a reply', threadParent: parent });
    await benCalls('threads.markRead', { messageUid: parent });
    // Frames come in order: once this one is here, every earlier one is.
    await annCalls('chat.sendMessage', { to: ben.id, text: 'fence' });
    await streams[0].waitForText('fence', 10_000);

    const ref = { uid: parent, from: ann.id, to: ben.id };
    expect(streams[0].frames.filter((frame) => !['hello', 'cursor', 'presence', 'typing'].includes(frame.type))).toEqual([
      expect.objectContaining({ type: 'message.created', message: expect.objectContaining({ uid: parent }) }),
      expect.objectContaining({ type: 'message.created', message: expect.objectContaining({ uid: reply, threadParent: parent }) }),
      expect.objectContaining({ type: 'thread.updated', message: ref, thread: expect.objectContaining({ replyCount: 1, participants: [ann.id], lastReplyUid: reply }) }),
      expect.objectContaining({ type: 'thread.followUpdated', message: ref, following: false, readUpTo: reply }),
      expect.objectContaining({ type: 'message.created', message: expect.objectContaining({ text: 'fence' }) }),
    ]);
  });
});
