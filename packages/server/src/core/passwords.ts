import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { UsersTable } from '../store/schema.js';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/**
 * A stored hash in the current format and parameters whose key is random bytes: no password matches it,
 * and checking one against it costs exactly what checking a real hash costs.
 */
const NO_ACCOUNT_HASH = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, randomBytes(16).toString('base64url'), randomBytes(KEY_LENGTH).toString('base64url')].join('$');

/**
 * Spends what checking a password costs, and always fails. Sign-in calls it when there is no account to
 * check against, so that an unknown email takes as long as a wrong password and timing does not tell
 * which emails have accounts.
 */
export async function verifyAgainstNoAccount(password: string): Promise<false> {
  await verifyPassword(password, NO_ACCOUNT_HASH);
  return false;
}

/** Whether the current password is right; a person without one (never set) has no right one. */
export async function currentPasswordIs(person: Pick<UsersTable, 'password_hash'>, password: string): Promise<boolean> {
  if (person.password_hash === null) return verifyAgainstNoAccount(password);
  return verifyPassword(password, person.password_hash);
}
