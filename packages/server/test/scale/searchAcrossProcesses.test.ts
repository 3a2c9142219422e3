import { describe, expect, it } from 'vitest';
import { http } from '../client/harness.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { redisAvailable } from '../helpers/redis.js';
import { roomyRateLimits } from '../methods/chat-cast.js';
import { twoServersOnOneRedis } from './twoProcesses.js';

const password = 'a password for the search test';

// A message sent through one process is found by a search through the other as soon as its send has
// returned: the other process drains the search queue first (docs/search.md "How the index is kept"),
// while both processes' background drains run beside it.
describe.runIf(dialects.includes('postgres') && redisAvailable)('search across two server processes', () => {
  const two = twoServersOnOneRedis({}, async () => undefined, roomyRateLimits);

  it('finds every message sent through the other process right after its send returns', async () => {
    const f = factories(two.testStore.store.db);
    const team = await f.team();
    const [ann, ben] = [await f.person(team.id, { password }), await f.person(team.id, { password })];
    const [sending, searching] = two.servers;
    const caller = async (email: string | null, url: string) => {
      const token = (await http(url, 'POST', '/api/session', { json: { email, password } })).body.sessionToken as string;
      return async (method: string, json: unknown) => {
        const answer = await http(url, 'POST', `/v1/${method}`, { json, headers: { authorization: `Bearer ${token}` } });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body;
      };
    };
    const [annCalls, benCalls] = [await caller(ann.email, sending.url), await caller(ben.email, searching.url)];
    for (let i = 0; i < 20; i++) {
      // A few at once, so that a drain has more than one to take.
      const texts = [0, 1, 2].map((k) => `shearwater${i}x${k} over the bay`);
      await Promise.all(texts.map((text) => annCalls('chat.sendMessage', { to: ben.id, text })));
      const found = await benCalls('search.messages', { query: `shearwater${i}x1` });
      expect(found.matches.map((match: { message: { text: string } }) => match.message.text)).toEqual([texts[1]]);
    }
  });
});
