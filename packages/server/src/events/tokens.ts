import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { eventTokenAlgorithm } from '@aviary/protocol';

/** The JOSE header of every event token, encoded once. */
const encodedHeader = Buffer.from(JSON.stringify({ alg: eventTokenAlgorithm, typ: 'JWT' })).toString('base64url');

/** HMAC keys by app secret, so a busy app's key is not made again for every attempt (bounded; oldest out first). */
const keys = new Map<string, KeyObject>();
const maxKeys = 1_000;

function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= maxKeys) keys.delete(keys.keys().next().value as string);
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/**
 * The event token (reference §5.1): a JWS in compact form, HS256 keyed with the app secret as UTF-8;
 * claims `appId`, `userId`, `iat`, `exp` (seconds) and `jti`. Signed here with node:crypto rather than a
 * JWT library: one HMAC over `base64url(header).base64url(payload)` is all HS256 is, and it is signed at
 * every attempt. Any JWT library verifies it (the SDK uses jose).
 */
export function signEventToken(secret: string, claims: { appId: string; userId: string; jti: string }, ttlSeconds: number, now: number): string {
  const iat = Math.floor(now / 1000);
  const payload = JSON.stringify({ appId: claims.appId, userId: claims.userId, iat, exp: iat + ttlSeconds, jti: claims.jti });
  const signingInput = `${encodedHeader}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
  const signature = createHmac('sha256', hmacKey(secret)).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}
