import { expect, it } from 'vitest';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { expectError, http } from './harness.js';

/**
 * One office, one lockout: others behind the same address can use up its failed sign-ins, but a browser
 * where the person signed in before (its device cookie, signed by the server, for that email) still gets
 * in with the right password. Its own failures are limited per device.
 */
let clock = Date.now();
const HOUR_MS = 60 * 60 * 1000;
const password = 'correct horse battery staple';

forEachDialect(
  'sign-in from a known device',
  (t) => {
    const signIn = (email: string, pass = password, device?: string) =>
      http(t().url, 'POST', '/api/session', { json: { email, password: pass }, headers: device ? { cookie: `aviary_device=${device}` } : {} });
    const person = async (t: TestServer) => {
      const user = await t.f.person((await t.f.team()).id, { password });
      return { ...user, email: user.email! };
    };
    /** The device cookie a sign-in set, as a browser would keep it. */
    const deviceOf = (answer: Awaited<ReturnType<typeof signIn>>): string => {
      const set = answer.headers.getSetCookie().find((value) => value.startsWith('aviary_device='));
      expect(set).toMatch(/; Path=\/api\/session; HttpOnly; SameSite=Strict; Max-Age=31536000/);
      return decodeURIComponent(set!.split(';')[0].slice('aviary_device='.length));
    };
    /** Someone else behind the same address uses up its failed sign-ins (what is left of them), until it is locked out. */
    const lockOutAddress = async () => {
      for (let i = 0; i <= 5; i++) {
        const guess = await signIn(`stranger${i}@example.com`, 'guess');
        if (guess.status === 429) return expectError(guess, { status: 429, error: 'TooManyRequests', description: /from this address/ });
        expectError(guess, { status: 401, error: 'InvalidCredentials' });
      }
      throw new Error('the address was not locked out after its burst of failures');
    };

    it('lets the right password from a known device through a locked-out address, and no one else', async () => {
      clock += HOUR_MS;
      const [ada, bob] = [await person(t()), await person(t())];
      const device = deviceOf(await signIn(ada.email));
      await lockOutAddress();
      expectError(await signIn(bob.email), { status: 429, error: 'TooManyRequests', description: /from this address/ });
      expectError(await signIn(ada.email), { status: 429, error: 'TooManyRequests', description: /from this address/ });

      const through = await signIn(ada.email, password, device);
      expect(through.status).toBe(200);
      expect(through.body.user.id).toBe(ada.id);
      // The cookie is Ada's: it opens nothing for Bob, even with his right password.
      expectError(await signIn(bob.email, password, device), { status: 429, error: 'TooManyRequests', description: /from this address/ });
      // A cookie changed by hand, or one of another server's key, is no device.
      const [id, issuedAt, email, signature] = device.split('.');
      const forged = [`${id}.${Number(issuedAt) + 1}.${email}.${signature}`, `${id}.${issuedAt}.${email}.${'A'.repeat(signature.length)}`];
      for (const cookie of forged) expectError(await signIn(ada.email, password, cookie), { status: 429, error: 'TooManyRequests', description: /from this address/ });
    });

    it('limits the failures of a known device on the device, and forgets a device after a year', async () => {
      clock += HOUR_MS;
      const ada = await person(t());
      const device = deviceOf(await signIn(ada.email));
      await lockOutAddress();
      for (let i = 0; i < 3; i++) expectError(await signIn(ada.email, `guess ${i}`, device), { status: 401, error: 'InvalidCredentials' });
      expectError(await signIn(ada.email, password, device), { status: 429, error: 'TooManyRequests', description: /from this device/ });

      clock += 400 * 24 * HOUR_MS;
      const renewed = deviceOf(await signIn(ada.email));
      await lockOutAddress();
      expect((await signIn(ada.email, password, renewed)).status).toBe(200);
      clock += 366 * 24 * HOUR_MS;
      await lockOutAddress();
      expectError(await signIn(ada.email, password, renewed), { status: 429, error: 'TooManyRequests', description: /from this address/ });
    });
  },
  { rateLimits: { signInFailures: { rate: 1 / 60, burst: 3 }, signInFailuresPerAddress: { rate: 1 / 3600, burst: 5 } } },
  { now: () => clock },
);
