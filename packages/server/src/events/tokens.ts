import { eventTokenAlgorithm } from '@aviary/protocol';
import { SignJWT } from 'jose';

/** The event token (reference §5.1): HS256 keyed with the app secret as UTF-8; `iat`/`exp` in seconds. */
export async function signEventToken(
  secret: string,
  claims: { appId: string; userId: string; jti: string },
  ttlSeconds: number,
  now: number,
): Promise<string> {
  const issuedAt = Math.floor(now / 1000);
  return new SignJWT({ appId: claims.appId, userId: claims.userId })
    .setProtectedHeader({ alg: eventTokenAlgorithm, typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .setJti(claims.jti)
    .sign(new TextEncoder().encode(secret));
}
