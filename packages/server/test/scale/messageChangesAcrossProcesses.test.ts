import { describe, expect, it } from 'vitest';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisAvailable } from '../helpers/redis.js';
import { followStream, type FollowedStream } from './streams.js';
import { twoServersOnOneRedis } from './twoProcesses.js';

const password = 'a password for the message changes test';

// Reactions, edits and deletes made through one process reach a stream held by the other, through Redis.
describe.runIf(dialects.includes('postgres') && redisAvailable)('reactions, edits and deletes across two server processes', () => {
  const streams: FollowedStream[] = [];
  // No looking at the store for entries nobody announced: only the bus brings the frames in time.
  const two = twoServersOnOneRedis({ catchUpMs: 3_600_000 }, async () => {
    for (const stream of streams.splice(0)) await stream.close();
  });

  it('brings reaction.added, reaction.removed, message.updated and message.deleted to the other process’s stream', async () => {
    const f = factories(two.testStore.store.db);
    const team = await f.team();
    const [ann, ben] = [await f.person(team.id, { password }), await f.person(team.id, { password })];
    const [changing, streaming] = two.servers;
    const signIn = async (email: string | null, url: string) => (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken as string;
    const annToken = await signIn(ann.email, changing.url);
    const call = async (method: string, json: unknown) => {
      const answer = await http(changing.url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${annToken}` } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };

    streams.push(await followStream(streaming.url, await signIn(ben.email, streaming.url)));
    const { uid } = await call('chat.sendMessage', { to: ben.id, text: 'first draft' });
    await streams[0].waitForText('first draft', 10_000);
    await call('reactions.add', { messageUid: uid, emoji: '🎉' });
    await call('reactions.remove', { messageUid: uid, emoji: '🎉' });
    await call('chat.updateMessage', { messageUid: uid, text: 'second draft' });
    await call('chat.deleteMessage', { messageUid: uid });
    // Frames come in order: once this one is here, every earlier one is.
    await call('chat.sendMessage', { to: ben.id, text: 'fence' });
    await streams[0].waitForText('fence', 10_000);

    const ref = { uid, from: ann.id, to: ben.id };
    expect(streams[0].frames.filter((frame) => !['hello', 'cursor', 'presence', 'typing', 'message.created'].includes(frame.type))).toEqual([
      expect.objectContaining({ type: 'reaction.added', message: ref, emoji: '🎉', userId: ann.id }),
      expect.objectContaining({ type: 'reaction.removed', message: ref, emoji: '🎉', userId: ann.id }),
      expect.objectContaining({ type: 'message.updated', message: expect.objectContaining({ uid, text: 'second draft' }) }),
      expect.objectContaining({ type: 'message.deleted', message: ref, deletedBy: ann.id }),
    ]);
  });
});
