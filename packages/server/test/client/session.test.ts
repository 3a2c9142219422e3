import { expect, it } from 'vitest';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { expectError, http } from './harness.js';

/** The server's clock, moved by the tests so that sign-in limits refill without waiting. */
let clock = Date.now();
const HOUR_MS = 60 * 60 * 1000;

const password = 'correct horse battery staple';
const signInTo = (t: TestServer, email: string, pass = password) => http(t.url, 'POST', '/api/session', { json: { email, password: pass } });
/** A person with a password, and so with an email. */
const person = async (t: TestServer) => {
  const user = await t.f.person((await t.f.team()).id, { password });
  return { ...user, email: user.email! };
};

forEachDialect(
  'sessions: signing in and out',
  (t) => {
    const signIn = (email: string, pass = password) => signInTo(t(), email, pass);

    it('signs a person in with the right password, whatever the email’s case, and out again', async () => {
      clock += HOUR_MS;
      const ada = await person(t());
      const signedIn = await signIn(` ${ada.email.toUpperCase()} `);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({ sessionToken: expect.any(String), user: { id: ada.id } });
      const headers = { authorization: `Bearer ${signedIn.body.sessionToken}` };
      expect((await http(t().url, 'POST', '/v1/roster.listContacts', { headers, json: {} })).status).toBe(200);
      expect((await http(t().url, 'DELETE', '/api/session', { headers })).status).toBe(200);
      expectError(await http(t().url, 'POST', '/v1/roster.listContacts', { headers, json: {} }), { status: 401, error: 'NotSignedIn' });

      expectError(await signIn(ada.email, 'wrong'), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn('nobody@example.com'), { status: 401, error: 'InvalidCredentials' });
      expectError(await http(t().url, 'POST', '/api/session', { json: { email: ada.email } }), { error: 'MissingParameter', parameter: 'password' });
    });

    it('limits failed sign-ins per email, the right password included once the limit is reached', async () => {
      clock += HOUR_MS;
      const [ada, bob] = [await person(t()), await person(t())];
      // Successful sign-ins do not count.
      for (let i = 0; i < 5; i++) expect((await signIn(ada.email)).status).toBe(200);
      for (let i = 0; i < 3; i++) expectError(await signIn(ada.email, `guess ${i}`), { status: 401, error: 'InvalidCredentials' });
      const refused = await signIn(ada.email);
      expectError(refused, { status: 429, error: 'TooManyRequests', description: /failed sign-ins for this email/ });
      expect(refused.body.retryAfter).toBe(60);
      expect(refused.headers.get('retry-after')).toBe('60');
      // Another person is not held back by Ada's failures.
      expect((await signIn(bob.email)).status).toBe(200);
      clock += 60_000;
      expect((await signIn(ada.email)).status).toBe(200);
    });

    it('limits failed sign-ins per client address, whatever the emails', async () => {
      clock += HOUR_MS;
      const carol = await person(t());
      for (let i = 0; i < 5; i++) expectError(await signIn(`stranger${i}@example.com`, 'guess'), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn(carol.email), { status: 429, error: 'TooManyRequests', description: /failed sign-ins from this address/ });
      clock += 1_000;
      expect((await signIn(carol.email)).status).toBe(200);
    });
  },
  { rateLimits: { signInFailures: { rate: 1 / 60, burst: 3 }, signInFailuresPerAddress: { rate: 1, burst: 5 } } },
  { now: () => clock },
);

forEachDialect(
  'sessions: sign-ins that open a session',
  (t) => {
    it('limits them per email and address; wrong passwords and other emails do not use them, and a refusal is no failure', async () => {
      clock += HOUR_MS;
      const [ada, bob] = [await person(t()), await person(t())];
      expectError(await signInTo(t(), ada.email, 'wrong'), { status: 401, error: 'InvalidCredentials' });
      for (let i = 0; i < 2; i++) expect((await signInTo(t(), ada.email)).status).toBe(200);
      const refused = await signInTo(t(), ada.email);
      expectError(refused, { status: 429, error: 'TooManyRequests', description: /Too many sign-ins for this email/ });
      expect(refused.body.retryAfter).toBe(60);
      expect((await signInTo(t(), bob.email)).status).toBe(200);
      // Refused again and again, the right password is still no failure: a minute on, it gets in.
      for (let i = 0; i < 3; i++) expectError(await signInTo(t(), ada.email), { status: 429, error: 'TooManyRequests', description: /Too many sign-ins for this email/ });
      clock += 60_000;
      expect((await signInTo(t(), ada.email)).status).toBe(200);
    });
  },
  { rateLimits: { signIns: { rate: 1 / 60, burst: 2 }, signInFailures: { rate: 1 / 60, burst: 3 } } },
  { now: () => clock },
);
