import { createHash, randomBytes } from 'node:crypto';
import type { ServerContext } from '../../context.js';
import { cookie } from './sessionToken.js';

/**
 * The device cookie (OWASP's answer to lockouts): a long-lived cookie, signed with the server's key, that
 * a browser gets when a person signs in on it with the right password. It names the device and the
 * email it signed in (as a digest), and lets that email's sign-ins from that browser through when the
 * client address is locked out by the failures of others behind the same address (one office, one
 * public address). Its own failures are limited per device instead (signInLimits.ts).
 */
export const DEVICE_COOKIE = 'aviary_device';
const DEVICE_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
const PURPOSE = 'device cookie';
/** A cookie far longer than the server makes is not read at all. */
const MAX_COOKIE_LENGTH = 200;

/** The id of the device whose cookie this is, when the cookie is ours, unexpired, and for `email`. */
export function knownDevice(ctx: ServerContext, value: string | undefined, email: string): string | undefined {
  if (value === undefined || value.length > MAX_COOKIE_LENGTH) return undefined;
  const [deviceId, issuedAt, emailDigest, signature] = value.split('.');
  if (signature === undefined || !/^[A-Za-z0-9_-]{22}$/.test(deviceId) || !/^\d{1,15}$/.test(issuedAt)) return undefined;
  if (!ctx.store.keyring.verify(PURPOSE, `${deviceId}.${issuedAt}.${emailDigest}`, signature)) return undefined;
  if (emailDigest !== digestOf(email) || Number(issuedAt) + DEVICE_LIFETIME_MS <= ctx.now()) return undefined;
  return deviceId;
}

/** The Set-Cookie of a device that just signed in as `email`: its id kept, or a new one, for another year. */
export function deviceCookie(ctx: ServerContext, email: string, deviceId = randomBytes(16).toString('base64url')): string {
  const data = `${deviceId}.${ctx.now()}.${digestOf(email)}`;
  const value = `${data}.${ctx.store.keyring.sign(PURPOSE, data)}`;
  // Only signing in reads it; scripts never do.
  return cookie(ctx.config, DEVICE_COOKIE, value, ['Path=/api/session', 'HttpOnly', 'SameSite=Strict', `Max-Age=${DEVICE_LIFETIME_MS / 1000}`]);
}

/** The email as the cookie holds it: enough to tell emails apart, without writing one in clear. */
const digestOf = (email: string): string => createHash('sha256').update(email).digest('base64url').slice(0, 22);
