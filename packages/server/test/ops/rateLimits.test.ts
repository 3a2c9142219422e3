import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, http, sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { rateLimitBackends } from '../helpers/redis.js';
import { startWithBackend, type OpsServer } from './harness.js';

/** The server's clock: buckets refill when a test moves it, never by waiting. */
let clock = Date.now();
const password = 'correct horse battery staple';

/**
 * The rate limits of /v1, of people's routes and of sign-ins behave alike whichever backend counts them,
 * but for when a refused call may come back: the next token of a bucket (memory), or the end of the
 * fixed window (Redis, a window of burst / rate seconds).
 */
for (const backend of rateLimitBackends) {
  /** Seconds a refused caller may have to wait at most, for a rule of `burst` at one call per `perSeconds`. */
  const longestWait = (burst: number, perSeconds: number) => (backend === 'memory' ? perSeconds : burst * perSeconds);
  const expectWait = (header: string | null, burst: number, perSeconds: number) => {
    if (backend === 'memory') expect(header).toBe(String(perSeconds));
    else expect(Number(header)).toSatisfy((seconds: number) => Number.isInteger(seconds) && seconds >= 1 && seconds <= burst * perSeconds);
  };
  describe(`rate limits over HTTP [${backend}]`, () => {
    let server: OpsServer;
    beforeAll(async () => {
      server = await startWithBackend(
        backend,
        {
          rateLimits: {
            read: { rate: 1, burst: 3 },
            message: { rate: 1, burst: 3 },
            messagePerRecipient: { rate: 1, burst: 1 },
            signInFailures: { rate: 1 / 60, burst: 2 },
          },
        },
        { now: () => clock },
      );
    });
    afterAll(() => server.stop());

    it('limits a burst per token and method with X-RateLimit-* and Retry-After, refills with time, leaves other tokens alone', async () => {
      clock += 60_000;
      const { people } = await teamWithApp(server.t.testStore.store.db, 2);
      const getInfo = (token: string) => server.t.call('users.getInfo', { query: { token } });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await getInfo(people[0].token));
      expect(answers.map((answer) => [answer.status, answer.headers.get('x-ratelimit-limit'), answer.headers.get('x-ratelimit-remaining')])).toEqual([
        [200, '3', '2'],
        [200, '3', '1'],
        [200, '3', '0'],
        [429, '3', '0'],
      ]);
      expectWait(answers[3].headers.get('retry-after'), 3, 1);
      expect(answers[3].body).toMatchObject({ error: 'TooManyRequests', retryAfter: Number(answers[3].headers.get('retry-after')) });
      if (backend === 'memory') expect(answers[0].headers.get('x-ratelimit-reset')).toBe('1');
      else expect(answers[0].headers.get('x-ratelimit-reset')).toBe(answers[3].headers.get('retry-after'));

      expect((await getInfo(people[1].token)).headers.get('x-ratelimit-remaining')).toBe('2');
      clock += longestWait(3, 1) * 1_000;
      expect((await getInfo(people[0].token)).status).toBe(200);
      // The buckets are where the backend keeps them: were Redis not answering, memory would have passed this too.
      // (a count per window: the first person's two windows and the second's one).
      if (server.scratch) expect(await server.scratch.keys()).toHaveLength(3);
    });

    it('refuses a second message to one recipient and gives the call its token back', async () => {
      clock += 60_000;
      const { people } = await teamWithApp(server.t.testStore.store.db, 3);
      const send = (to: string) => server.t.call('chat.sendMessage', { form: { token: people[0].token, to, text: 'hi' } });
      expect((await send(people[1].id)).headers.get('x-ratelimit-remaining')).toBe('2');
      const again = await send(people[1].id);
      expect(again.status).toBe(429);
      expect(again.body.description).toMatch(/one recipient/);
      // Had the refused call kept its token, one would be left, not two.
      expect((await send(people[2].id)).headers.get('x-ratelimit-remaining')).toBe('1');
    });

    it('limits a person’s client API routes like /v1', async () => {
      clock += 60_000;
      const { team } = await teamWithApp(server.t.testStore.store.db, 1);
      const ada = await sessionFor(server.t, await server.t.f.person(team.id));
      for (let i = 0; i < 3; i++) expect((await ada.call('chat.listConversations')).status).toBe(200);
      expectError(await ada.call('chat.listConversations'), { status: 429, error: 'TooManyRequests' });
    });

    it('limits failed sign-ins, and a successful one costs nothing', async () => {
      clock += 60 * 60_000;
      const { team } = await teamWithApp(server.t.testStore.store.db, 1);
      const person = await server.t.f.person(team.id, { password });
      const signIn = (pass: string) => http(server.t.url, 'POST', '/api/session', { json: { email: person.email, password: pass } });
      expect((await signIn(password)).status).toBe(200);
      for (let i = 0; i < 2; i++) expectError(await signIn('guess'), { status: 401, error: 'InvalidCredentials' });
      const refused = await signIn(password);
      expectError(refused, { status: 429, error: 'TooManyRequests', description: /for this email from this address/ });
      expectWait(refused.headers.get('retry-after'), 2, 60);
      clock += longestWait(2, 60) * 1_000;
      expect((await signIn(password)).status).toBe(200);
      expect((await signIn(password)).status).toBe(200);
    });
  });
}
