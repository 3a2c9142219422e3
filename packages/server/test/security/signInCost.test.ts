import * as crypto from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { http } from '../client/harness.js';

/**
 * Counts the password hash's work (scrypt, with its cost parameters) without changing it: timing
 * itself is measured by `npm run bench`, never asserted in a test.
 */
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, scrypt: vi.fn(original.scrypt) };
});

const scrypt = vi.mocked(crypto.scrypt);
const password = 'correct horse battery staple';

/** The cost options of each scrypt run while `work` ran. */
async function hashRunsDuring(work: () => Promise<unknown>): Promise<unknown[]> {
  scrypt.mockClear();
  await work();
  return scrypt.mock.calls.map((call) => call[3]);
}

forEachDialect('sign-in: an unknown email costs what a wrong password costs', (t) => {
  it('checks the password once against a hash of the same cost when there is no account, as for a wrong password', async () => {
    const user = await t().f.person((await t().f.team()).id, { password });
    const signIn = (email: string, pass: string) => http(t().url, 'POST', '/api/session', { json: { email, password: pass } });

    const wrongPassword = await hashRunsDuring(async () => expect((await signIn(user.email!, 'wrong')).status).toBe(401));
    const unknownEmail = await hashRunsDuring(async () => expect((await signIn('nobody@example.test', 'wrong')).status).toBe(401));
    expect(wrongPassword).toHaveLength(1);
    expect(unknownEmail).toEqual(wrongPassword);
    expect(unknownEmail[0]).toMatchObject({ N: 16384, r: 8, p: 1 });
  });
});
