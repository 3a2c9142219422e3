/**
 * Event token verification (docs/reference/event-tokens.md): a pure function of the token, the app's credentials and a
 * clock, so that a test can pin every rejection without a server. Parsed by hand, strictly: every part
 * must be canonical base64url, so that no two spellings of one token are accepted.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { eventTokenAlgorithm, eventTokenRoutes, type EventTokenRoute } from '@aviary/protocol';
import type { EventTokenClaims } from '../types.js';

export type EventTokenErrorReason =
  | 'malformed'
  | 'algorithm'
  | 'header'
  | 'signature'
  | 'appId'
  | 'userId'
  | 'expired'
  | 'claims'
  | 'route'
  | 'digest';

/** Why an event token was refused; `reason` is stable, the message is for people. */
export class EventTokenError extends Error {
  override readonly name = 'EventTokenError';

  constructor(
    readonly reason: EventTokenErrorReason,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyEventTokenOptions {
  appId: string;
  appSecret: string;
  /** When given, the token's `userId` claim must equal it (the event's `userId`). */
  userId?: string;
  /** When given, the token's `route` claim must be this one (or one of these). */
  route?: EventTokenRoute | readonly EventTokenRoute[];
  /**
   * When given, the token's `sha256` claim must be the digest of exactly these bytes (a string counts as
   * UTF-8): the raw request body of a listener delivery, or a widget URL's `serviceEvent` value.
   */
  content?: Uint8Array | string;
  /** The current time in milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /** How far `exp` and `iat` may be off the clock, in seconds (default 60). */
  clockToleranceSeconds?: number;
}

const defaultClockToleranceSeconds = 60;
const stringClaims = ['appId', 'userId', 'jti'] as const;
const requiredClaims = ['appId', 'userId', 'iat', 'exp', 'jti'] as const;
const base64urlAlphabet = /^[A-Za-z0-9_-]*$/;

/** Resolves to the token's claims, or rejects with an `EventTokenError`. */
export async function verifyEventToken(token: string, options: VerifyEventTokenOptions): Promise<EventTokenClaims> {
  if (!options.appSecret) throw new TypeError('verifyEventToken needs the app secret');
  const now = options.now ?? Date.now;
  const tolerance = options.clockToleranceSeconds ?? defaultClockToleranceSeconds;
  if (typeof token !== 'string' || token === '') throw new EventTokenError('malformed', 'the event token is empty');

  const parts = token.split('.');
  if (parts.length !== 3) throw new EventTokenError('malformed', 'the event token is not a JWS in compact form (three parts joined by dots)');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  checkHeader(decodeJsonPart(encodedHeader, 'header'));
  checkSignature(`${encodedHeader}.${encodedPayload}`, encodedSignature, options);
  const payload = decodeJsonPart(encodedPayload, 'payload');

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
  const route = checkRoute(payload.route, options.route);
  const sha256 = checkDigest(payload.sha256, options.content);
  return {
    appId: claims.appId,
    userId: claims.userId,
    iat: claims.iat,
    exp: claims.exp,
    jti: claims.jti,
    ...(route !== undefined ? { route } : {}),
    ...(sha256 !== undefined ? { sha256 } : {}),
  };
}

/**
 * Only HS256, and no `crit`: a critical extension (such as an unencoded payload, `b64`) would change what
 * the signature covers, and event tokens never use one. `none` and other algorithms are refused by name
 * before any key is used.
 */
function checkHeader(header: Record<string, unknown>): void {
  if (typeof header.alg !== 'string') throw new EventTokenError('malformed', 'the event token header has no "alg"');
  if (header.alg !== eventTokenAlgorithm) {
    throw new EventTokenError('algorithm', `the event token is signed with ${header.alg}; only ${eventTokenAlgorithm} is accepted`);
  }
  if (header.crit !== undefined) {
    throw new EventTokenError('header', 'the event token header has "crit" (critical extensions); event tokens never do, so it is refused');
  }
}

/**
 * HMAC-SHA256 over the token's first two parts, compared in constant time with the signature, which must
 * be exactly the canonical base64url of 32 bytes: no padding, nothing appended, no other spelling.
 * node:crypto does this in a few microseconds where a WebCrypto round trip costs ~100.
 */
function checkSignature(signingInput: string, encodedSignature: string, options: VerifyEventTokenOptions): void {
  const given = decodeCanonical(encodedSignature);
  if (given === undefined) {
    throw new EventTokenError('malformed', 'the event token signature is not canonical base64url (padding, junk or a non-canonical last character)');
  }
  const expected = createHmac('sha256', options.appSecret).update(signingInput).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new EventTokenError(
      'signature',
      `the event token's signature does not match: is appSecret the secret of app ${options.appId}? (after a secret rotation, the app needs the new one)`,
    );
  }
}

function checkRoute(value: unknown, wanted: VerifyEventTokenOptions['route']): EventTokenRoute | undefined {
  if (value !== undefined && !(eventTokenRoutes as readonly unknown[]).includes(value)) {
    throw new EventTokenError('claims', `the event token's "route" claim must be one of ${eventTokenRoutes.join(', ')}`);
  }
  const route = value as EventTokenRoute | undefined;
  if (wanted === undefined) return route;
  const allowed: readonly EventTokenRoute[] = typeof wanted === 'string' ? [wanted] : wanted;
  if (route === undefined) throw new EventTokenError('route', `the event token has no "route" claim; it must be for ${allowed.join(' or ')}`);
  if (!allowed.includes(route)) throw new EventTokenError('route', `the event token is for the ${route} route, not ${allowed.join(' or ')}`);
  return route;
}

function checkDigest(value: unknown, content: VerifyEventTokenOptions['content']): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || decodeCanonical(value)?.length !== 32)) {
    throw new EventTokenError('claims', 'the event token\'s "sha256" claim must be a base64url SHA-256 digest');
  }
  const sha256 = value as string | undefined;
  if (content === undefined) return sha256;
  if (sha256 === undefined) throw new EventTokenError('digest', 'the event token has no "sha256" claim, so it vouches for no content');
  const actual = createHash('sha256').update(content).digest();
  if (!timingSafeEqual(actual, decodeCanonical(sha256)!)) {
    throw new EventTokenError('digest', 'the event token was signed for other content: its "sha256" claim does not match the bytes received');
  }
  return sha256;
}

/** The bytes of a canonical base64url string (no padding, the unused bits of the last character zero), else undefined. */
function decodeCanonical(text: string): Buffer | undefined {
  if (!base64urlAlphabet.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function decodeJsonPart(encoded: string, part: 'header' | 'payload'): Record<string, unknown> {
  const bytes = decodeCanonical(encoded);
  if (bytes === undefined) throw new EventTokenError('malformed', `the event token ${part} is not canonical base64url`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new EventTokenError('malformed', `the event token ${part} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EventTokenError('malformed', `the event token ${part} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
