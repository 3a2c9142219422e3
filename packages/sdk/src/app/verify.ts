/**
 * Event token verification (reference §5.1): a pure function of the token, the app's credentials and a
 * clock, so that a test can pin every rejection without a server.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { eventTokenAlgorithm, type EventTokenClaims } from '@aviary/protocol';

export type EventTokenErrorReason = 'malformed' | 'algorithm' | 'signature' | 'appId' | 'userId' | 'expired' | 'claims';

/** Why an event token was refused; `reason` is stable, the message is for people. */
export class EventTokenError extends Error {
  readonly reason: EventTokenErrorReason;

  constructor(reason: EventTokenErrorReason, message: string) {
    super(message);
    this.name = 'EventTokenError';
    this.reason = reason;
  }
}

export interface VerifyEventTokenOptions {
  appId: string;
  appSecret: string;
  /** When given, the token's `userId` claim must equal it (the event's `userId`). */
  userId?: string;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /** How far `exp` and `iat` may be off the clock, in seconds (default 60). */
  clockToleranceSeconds?: number;
}

const defaultClockToleranceSeconds = 60;
const stringClaims = ['appId', 'userId', 'jti'] as const;
const requiredClaims = ['appId', 'userId', 'iat', 'exp', 'jti'] as const;

/** Resolves to the token's claims, or rejects with an `EventTokenError`. */
export async function verifyEventToken(token: string, options: VerifyEventTokenOptions): Promise<EventTokenClaims> {
  if (!options.appSecret) throw new TypeError('verifyEventToken needs the app secret');
  const now = options.now ?? Date.now;
  const tolerance = options.clockToleranceSeconds ?? defaultClockToleranceSeconds;
  if (typeof token !== 'string' || token === '') throw new EventTokenError('malformed', 'the event token is empty');

  const algorithm = readAlgorithm(token);
  if (algorithm !== eventTokenAlgorithm) {
    throw new EventTokenError('algorithm', `the event token is signed with ${algorithm}; only ${eventTokenAlgorithm} is accepted`);
  }

  const payload = verifiedPayload(token, options.appSecret);
  for (const claim of requiredClaims) {
    if (payload[claim] === undefined) throw new EventTokenError('claims', `the event token's "${claim}" claim is missing or invalid`);
  }
  for (const claim of ['iat', 'exp'] as const) {
    if (typeof payload[claim] !== 'number' || !Number.isFinite(payload[claim])) {
      throw new EventTokenError('claims', `the event token's "${claim}" claim is missing or invalid`);
    }
  }
  if ((payload.exp as number) <= now() / 1000 - tolerance) throw new EventTokenError('expired', 'the event token has expired');

  for (const claim of stringClaims) {
    if (typeof payload[claim] !== 'string' || payload[claim] === '') {
      throw new EventTokenError('claims', `the event token's "${claim}" claim must be a non-empty string`);
    }
  }
  const claims = payload as unknown as EventTokenClaims;
  if (claims.iat > now() / 1000 + tolerance) {
    throw new EventTokenError('claims', 'the event token was issued in the future (its "iat" claim is ahead of the clock)');
  }
  if (claims.appId !== options.appId) {
    throw new EventTokenError('appId', `the event token is for app ${claims.appId}, not ${options.appId}`);
  }
  if (options.userId !== undefined && claims.userId !== options.userId) {
    throw new EventTokenError('userId', `the event token is for user ${claims.userId}, but the event names ${options.userId}`);
  }
  return { appId: claims.appId, userId: claims.userId, iat: claims.iat, exp: claims.exp, jti: claims.jti };
}

/**
 * Checks the HS256 signature (HMAC-SHA256 over the token's first two parts, compared in constant time) and
 * returns the decoded claims. The header's algorithm was already checked by name, so nothing but HS256
 * reaches here; node:crypto does this in a few microseconds where a WebCrypto round trip costs ~100.
 */
function verifiedPayload(token: string, secret: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new EventTokenError('malformed', 'the event token is not a JWS in compact form');
  const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new EventTokenError('signature', 'the event token is not signed with this app secret');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    throw new EventTokenError('malformed', 'the event token payload is not JSON');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new EventTokenError('malformed', 'the event token payload is not a JSON object');
  }
  return payload as Record<string, unknown>;
}

/** Reads the header before any key is used, so that `none` and other algorithms are refused by name. */
function readAlgorithm(token: string): string {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new EventTokenError('malformed', 'the event token is not a JWS in compact form');
  }
  if (typeof header.alg !== 'string') throw new EventTokenError('malformed', 'the event token header has no "alg"');
  return header.alg;
}
