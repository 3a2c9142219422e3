import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/api/tokenBuckets.js';
import { expectError, http } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

/** Each cause of a 500 the fuzzing found, and each limit on input, answered as a clear 4xx. */
forEachDialect('input limits', (t) => {
  const password = 'limits are kindness';
  /** A signed-in developer with an app, and their session token for the client API and the methods. */
  const developer = async (test: TestServer) => {
    const { team, app, people } = await teamWithApp(test.testStore.store.db, 2);
    const person = await test.f.person(team.id, { password });
    const own = await test.f.app(team.id, person.id);
    const signedIn = await http(test.url, 'POST', '/api/session', { json: { email: person.email, password } });
    expect(signedIn.status).toBe(200);
    return { app, own, people, headers: { authorization: `Bearer ${signedIn.body.sessionToken as string}` } };
  };

  describe('tokens', () => {
    it('a token longer than 128 characters or outside base64url is InvalidToken before it is looked up', async () => {
      for (const token of ['a'.repeat(129), 'au_' + 'é'.repeat(20), 'au_abc.def', 'au abc', 'x'.repeat(200_000)]) {
        const answer = await t().call('users.getInfo', { form: { token } });
        expectError(answer, { status: 403, error: 'InvalidToken', description: /at most 128 characters/ });
      }
      const bearer = await t().call('users.getInfo', { headers: { authorization: `Bearer ${'A'.repeat(8000)}` } });
      expectError(bearer, { status: 403, error: 'InvalidToken', description: /malformed/ });
    });

    it('a well-shaped unknown token is still the usual InvalidToken', async () => {
      const answer = await t().call('users.getInfo', { form: { token: `au_${'A'.repeat(125)}` } });
      expectError(answer, { status: 403, error: 'InvalidToken', description: /unknown/ });
    });
  });

  describe('nesting', () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

    it('JSON nested 6,000 deep in a parameter is InvalidParameter naming it, as text or as JSON', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const [sender, other] = people;
      const asText = await t().call('chat.sendMessage', { form: { token: sender.token, to: other.id, text: 'x', attachments: deep(6000) } });
      expectError(asText, { error: 'InvalidParameter', parameter: 'attachments', description: /nested more than 32 levels/ });
      const asJson = await t().call('chat.sendMessage', { body: `{"token":"${sender.token}","to":"${other.id}","text":"x","attachments":${deep(6000)}}`, headers: { 'content-type': 'application/json' } });
      expectError(asJson, { error: 'InvalidParameter', parameter: 'attachments', description: /nested more than 32 levels/ });
      const members = await t().call('channels.create', { form: { token: sender.token, name: 'deep', members: `{"a":`.repeat(6000) + '1' + '}'.repeat(6000) } });
      expectError(members, { error: 'InvalidParameter', parameter: 'members' });
    });

    it('32 levels are checked as usual; 33 are refused for their depth', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const at = (depth: number) => t().call('chat.sendMessage', { form: { token: people[0].token, to: people[1].id, text: 'x', attachments: `[${deep(depth - 1)}]` } });
      expect((await at(32)).body.description).not.toMatch(/nested/);
      expect((await at(33)).body.description).toMatch(/nested more than 32 levels/);
    });
  });

  describe('query and route parameters', () => {
    it('a repeated query parameter of deliveries.list is InvalidParameter', async () => {
      const { own, headers } = await developer(t());
      for (const query of ['status=failed&status=pending', 'limit=1&limit=2', 'before=a&before=b']) {
        const answer = await http(t().url, 'GET', `/v1/deliveries.list?appId=${own.id}&${query}`, { headers });
        expectError(answer, { error: 'InvalidParameter', parameter: query.split('=')[0], description: /was given 2 values/ });
      }
      expect((await http(t().url, 'GET', `/v1/deliveries.list?appId=${own.id}&status=failed`, { headers })).status).toBe(200);
    });

    it('U+0000 in a query or body is InvalidParameter naming it, on PostgreSQL too', async () => {
      const { own, headers } = await developer(t());
      expectError(await http(t().url, 'GET', '/v1/apps.getInfo?appId=%00', { headers }), { error: 'InvalidParameter', parameter: 'appId' });
      expectError(await http(t().url, 'POST', '/v1/apps.install', { headers, json: { appId: 'a\u0000b' } }), { error: 'InvalidParameter', parameter: 'appId' });
      expectError(await http(t().url, 'GET', `/v1/deliveries.list?appId=${own.id}&before=%00`, { headers }), { error: 'InvalidParameter', parameter: 'before' });
      expectError(await http(t().url, 'POST', '/v1/apps.update', { headers, json: { appId: own.id, name: 'a\u0000b' } }), { error: 'InvalidParameter', parameter: 'name' });
      expectError(await http(t().url, 'POST', '/api/session', { json: { email: 'a\u0000@example.test', password: 'x' } }), { error: 'InvalidParameter', parameter: 'email' });
    });

    it('half of a surrogate pair alone is InvalidParameter naming the parameter; whole emoji pass, and nothing is stored changed', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const token = people[0].token;
      // JSON's \ud83d alone, at the end, at the start, or nested in an attachment; a low half alone.
      for (const [text, extra] of [['lone \ud83d', {}], ['\ude00 first', {}], ['fine', { attachments: JSON.stringify([{ title: 'card \ud800' }]) }]] as const) {
        const answer = await t().call('chat.sendMessage', { json: { token, to: people[1].id, text, ...extra } });
        const parameter = 'attachments' in extra ? 'attachments' : 'text';
        expectError(answer, { error: 'InvalidParameter', parameter, description: /not well-formed Unicode: it holds half of a UTF-16 surrogate pair/ });
      }
      expectError(await t().call('channels.create', { json: { token, name: 'sur\ud800rogate' } }), { error: 'InvalidParameter', parameter: 'name' });
      expectError(await http(t().url, 'POST', '/api/session', { json: { email: 'someone@example.test', password: 'long enough pw\udfff' } }), { error: 'InvalidParameter', parameter: 'password' });
      const whole = await t().call('chat.sendMessage', { json: { token, to: people[1].id, text: 'whole 😀 and 𝄞' } });
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      const [kept] = await t().client(people[1].token).chat.fetchMessages({ chat: people[0].id, limit: 1 });
      expect(kept.text).toBe('whole 😀 and 𝄞');
    });

    it('on /v1, U+0000 is a parameter error that comes after the token check', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const withNul = { to: people[1].id, text: 'a\u0000b' };
      expectError(await t().call('chat.sendMessage', { json: { token: 'nope', ...withNul } }), { status: 403, error: 'InvalidToken' });
      expectError(await t().call('chat.sendMessage', { json: { token: people[0].token, ...withNul } }), { error: 'InvalidParameter', parameter: 'text' });
      expectError(await t().call('channels.create', { form: { token: people[0].token, name: 'a\u0000' } }), { error: 'InvalidParameter', parameter: 'name' });
    });
  });

  describe('URLs', () => {
    it('a channel profileImage gets the one URL check: a port over 65535 or a host a browser cannot parse is refused', async () => {
      const { people } = await teamWithApp(t().testStore.store.db, 2);
      const members = people[1].id;
      for (const [url, reason] of [['http://a.com:99999/x.png', /port 99999/], ['https://a.123/x.png', /cannot parse/], ['https://[::1:]/x.png', /cannot parse/]] as const) {
        const answer = await t().call('channels.create', { form: { token: people[0].token, name: `pic ${url.length}`, members, profileImage: url } });
        expectError(answer, { error: 'InvalidParameter', parameter: 'profileImage', description: reason });
      }
      const fine = await t().call('channels.create', { form: { token: people[0].token, name: 'pictured', members, profileImage: 'https://img.example.test:8443/a.png' } });
      expect(fine.body).toMatchObject({ id: expect.stringMatching(/^g:/) });
    });

    it('a developer app URL the URL parser refuses is InvalidParameter, never stored', async () => {
      const { own, headers } = await developer(t());
      const answer = await http(t().url, 'POST', '/v1/apps.update', { headers, json: { appId: own.id, configurationUrl: 'http://a.com:99999/' } });
      expectError(answer, { error: 'InvalidParameter', parameter: 'configurationUrl', description: /port 99999/ });
    });
  });
});

describe('TokenBuckets stay bounded whatever keys they are given', () => {
  const rule = { rate: 1, burst: 2 };

  it('holds at most maxBuckets, the least recently used going first', () => {
    const buckets = new TokenBuckets(() => 0, 3);
    for (const key of ['a', 'b', 'c']) buckets.take(key, rule);
    buckets.take('a', rule); // a is now the most recently used
    buckets.take('d', rule);
    expect(buckets.size).toBe(3);
    // b went: it starts full again; a kept its count (one left of two, so this is its last).
    expect(buckets.take('b', rule).remaining).toBe(1);
    expect(buckets.take('a', rule).allowed).toBe(false);
  });

  it('keeps a long key as its hash: the limit still holds per key', () => {
    const buckets = new TokenBuckets(() => 0);
    const long = 'k'.repeat(1_000_000);
    expect(buckets.take(long, rule).allowed).toBe(true);
    expect(buckets.take(long, rule).allowed).toBe(true);
    expect(buckets.take(long, rule).allowed).toBe(false);
    expect(buckets.take(`${long}!`, rule).allowed).toBe(true);
  });
});
