import { eventHeaders, eventTokenLifetimeSeconds } from '@aviary/protocol';
import type { AttemptOutcome, EventAttemptsTable } from '../store/schema.js';
import type { Tx } from '../store/store.js';
import { newAttemptId } from './ids.js';
import type { AttemptResult } from './listenerCall.js';
import { responseSnippetBytes, userAgent } from './settings.js';
import { signEventToken } from './tokens.js';

export interface AttemptTarget {
  appId: string;
  appSecret: string;
  userId: string;
  eventId: string;
  retryNum: number;
  /** Why the previous attempt failed; absent on a first attempt. */
  retryReason?: string | null;
}

/** The headers of every POST to a listener (reference §5.2), with a token signed for this attempt. */
export async function listenerHeaders(target: AttemptTarget, now: number): Promise<Record<string, string>> {
  const token = await signEventToken(
    target.appSecret,
    { appId: target.appId, userId: target.userId, jti: target.eventId },
    eventTokenLifetimeSeconds.listener,
    now,
  );
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    [eventHeaders.token]: token,
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

export async function insertAttempt(
  tx: Tx,
  input: { eventId: string; appId: string; retryNum: number; startedAt: number; result: AttemptResult; outcome: AttemptOutcome; reason: string | null; error: string | null },
): Promise<void> {
  const { result } = input;
  const row: EventAttemptsTable = {
    id: newAttemptId(input.startedAt),
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
  await tx.insertInto('event_attempts').values(row).execute();
}
