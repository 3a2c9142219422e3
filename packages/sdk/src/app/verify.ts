/**
 * Event token verification (reference §5.1): a pure function of the token, the app's credentials and a
 * clock, so that a test can pin every rejection without a server.
 */
import { errors as joseErrors, decodeProtectedHeader, jwtVerify } from 'jose';
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

  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, await verificationKey(options.appSecret), {
      algorithms: [eventTokenAlgorithm],
      currentDate: new Date(now()),
      clockTolerance: tolerance,
      requiredClaims: ['appId', 'userId', 'iat', 'exp', 'jti'],
    }));
  } catch (error) {
    throw error instanceof joseErrors.JOSEError ? fromJoseError(error) : error;
  }

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

const keys = new Map<string, Promise<CryptoKey>>();
const maxKeys = 100;

/**
 * The app secret imported once as an HMAC key: importing it anew for every event costs more than the
 * verification itself. Few secrets are in use at once (an app's, and the previous one while rotating).
 */
function verificationKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= maxKeys) keys.delete(keys.keys().next().value as string);
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    keys.set(secret, key);
  }
  return key;
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

function fromJoseError(error: InstanceType<typeof joseErrors.JOSEError>): EventTokenError {
  if (error instanceof joseErrors.JWTExpired) return new EventTokenError('expired', 'the event token has expired');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new EventTokenError('signature', 'the event token is not signed with this app secret');
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new EventTokenError('claims', `the event token's "${error.claim}" claim is missing or invalid`);
  }
  return new EventTokenError('malformed', 'the event token is malformed');
}
