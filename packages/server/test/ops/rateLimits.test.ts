import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, http, sessionFor } from '../client/harness.js';
import { teamWithApp } from '../helpers/factories.js';
import { rateLimitBackends } from '../helpers/redis.js';
import { startWithBackend, type OpsServer } from './harness.js';

/** The server's clock: buckets refill when a test moves it, never by waiting. */
let clock = Date.now();
const password = 'correct horse battery staple';

/** The rate limits of /v1, of people's routes and of sign-ins behave alike whichever backend keeps the buckets. */
for (const backend of rateLimitBackends) {
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
      expect(answers[3].headers.get('retry-after')).toBe('1');
      expect(answers[3].body).toMatchObject({ error: 'TooManyRequests', retryAfter: 1 });
      expect(answers[0].headers.get('x-ratelimit-reset')).toBe('1');

      expect((await getInfo(people[1].token)).headers.get('x-ratelimit-remaining')).toBe('2');
      clock += 1_000;
      expect((await getInfo(people[0].token)).status).toBe(200);
      // The buckets are where the backend keeps them: were Redis not answering, memory would have passed this too.
      if (server.scratch) expect(await server.scratch.keys()).toHaveLength(2);
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
      for (let i = 0; i < 3; i++) expect((await ada.get('/conversations')).status).toBe(200);
      expectError(await ada.get('/conversations'), { status: 429, error: 'TooManyRequests' });
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
      expect(refused.headers.get('retry-after')).toBe('60');
      clock += 60_000;
      expect((await signIn(password)).status).toBe(200);
      expect((await signIn(password)).status).toBe(200);
    });
  });
}
