import { eventHeaders, eventTokenLifetimeSeconds, flockEventTokenHeader } from '@aviary/protocol';
import type { AttemptOutcome, EventAttemptsTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { newAttemptId } from '../ids.js';
import type { AttemptResult } from './listenerCall.js';
import { responseSnippetBytes, userAgent } from './settings.js';
import { powerOfTwoChunks } from '../outbox/sqlLists.js';
import { signEventToken } from '../signing/tokens.js';

export interface AttemptTarget {
  appId: string;
  appSecret: string;
  /** A rotated-out secret, still signing a second token until `previousSecretUntil`. */
  previousSecret?: string | null;
  previousSecretUntil?: number | null;
  userId: string;
  eventId: string;
  retryNum: number;
  /** Why the previous attempt failed; absent on a first attempt. */
  retryReason?: string | null;
  /** The app's Flock-compatible naming: the token also goes as `X-Flock-Event-Token`. */
  flockNaming?: boolean;
}

/**
 * The headers of every POST to a listener (docs/reference/events.md), with a token signed for this attempt: for the
 * listener route and for exactly `body`, the bytes sent.
 */
export function listenerHeaders(target: AttemptTarget, body: string, now: number): Record<string, string> {
  const claims = { appId: target.appId, userId: target.userId, jti: target.eventId, route: 'listener', content: body } as const;
  const sign = (secret: string) => signEventToken(secret, claims, eventTokenLifetimeSeconds.listener, now);
  const inGrace = target.previousSecret && target.previousSecretUntil != null && now < target.previousSecretUntil;
  const token = sign(target.appSecret);
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    [eventHeaders.token]: token,
    ...(target.flockNaming ? { [flockEventTokenHeader]: token } : {}),
    ...(inGrace ? { [eventHeaders.previousToken]: sign(target.previousSecret!) } : {}),
    [eventHeaders.eventId]: target.eventId,
    [eventHeaders.retryNum]: String(target.retryNum),
    ...(target.retryReason ? { [eventHeaders.retryReason]: target.retryReason } : {}),
  };
}

/** A result for an app that has no listener URL: nothing could be sent, as if the connection failed. */
export const noListenerResult: AttemptResult = {
  kind: 'unanswered',
  reason: 'connection_failed',
  error: 'the app has no event listener URL',
  durationMs: 0,
};

export interface AttemptToRecord {
  /** The record's id, when it was chosen already (so that writing it twice cannot make two records). */
  id?: string;
  eventId: string;
  appId: string;
  retryNum: number;
  startedAt: number;
  result: AttemptResult;
  outcome: AttemptOutcome;
  reason: string | null;
  error: string | null;
}

export async function insertAttempt(tx: Tx, input: AttemptToRecord): Promise<void> {
  await insertAttempts(tx, [input]);
}

/** Rows per INSERT at most: 11 columns each, well under SQLite's 32,766 parameters; a power of two. */
const attemptsPerInsert = 512;

/**
 * Records attempts (docs/reference/developer-api.md: time, status, latency, error, first 1 KiB of the answer), up to a
 * few hundred per statement, in power-of-two chunks (see sqlLists.ts).
 */
export async function insertAttempts(tx: Tx, inputs: AttemptToRecord[]): Promise<void> {
  for (const chunk of powerOfTwoChunks(inputs, attemptsPerInsert)) {
    await tx.insertInto('event_attempts').values(chunk.map(attemptRow)).execute();
  }
}

function attemptRow(input: AttemptToRecord): EventAttemptsTable {
  const { result } = input;
  return {
    id: input.id ?? newAttemptId(input.startedAt),
    event_id: input.eventId,
    app_id: input.appId,
    retry_num: input.retryNum,
    started_at: input.startedAt,
    duration_ms: result.durationMs,
    status: result.kind === 'answered' ? result.status : null,
    reason: input.reason,
    error: input.error,
    response_snippet: result.kind === 'answered' && result.body.length > 0 ? result.body.subarray(0, responseSnippetBytes).toString('utf8') : null,
    outcome: input.outcome,
  };
}
