import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { eventTokenAlgorithm, type EventTokenRoute } from '@aviary/protocol';

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

/** What one event token is for: whose event, which route, and the exact bytes it vouches for. */
export interface EventTokenSubject {
  appId: string;
  userId: string;
  jti: string;
  route: EventTokenRoute;
  /** The request body of a listener delivery, or the `serviceEvent` value of a widget or browser URL. */
  content: string;
}

/**
 * The event token (docs/reference/event-tokens.md): a JWS in compact form, HS256 keyed with the app secret as UTF-8;
 * claims `appId`, `userId`, `iat`, `exp` (seconds) and `jti`, plus `route` and `sha256` (the digest of
 * the content, UTF-8), so that a token cannot be replayed with other content or on another route.
 * Signed here with node:crypto rather than a JWT library: one HMAC over
 * `base64url(header).base64url(payload)` is all HS256 is, and it is signed at every attempt. Any JWT
 * library verifies it (the SDK checks it by hand, strictly).
 */
export function signEventToken(secret: string, subject: EventTokenSubject, ttlSeconds: number, now: number): string {
  const iat = Math.floor(now / 1000);
  const payload = JSON.stringify({
    appId: subject.appId,
    userId: subject.userId,
    iat,
    exp: iat + ttlSeconds,
    jti: subject.jti,
    route: subject.route,
    sha256: sha256Base64url(subject.content),
  });
  const signingInput = `${encodedHeader}.${Buffer.from(payload, 'utf8').toString('base64url')}`;
  const signature = createHmac('sha256', hmacKey(secret)).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

/** The `sha256` claim of a content: the digest of its UTF-8 bytes, base64url without padding. */
export function sha256Base64url(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('base64url');
}
