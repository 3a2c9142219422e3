import { flockNamedEvent, type AnyEvent } from '@aviary/protocol';
import type { EventsContext } from '../context.js';
import { insertAttempt, listenerHeaders, noListenerResult } from './attempts.js';
import { logListenerNews, logSyncDelivery } from './deliveryLog.js';
import { endBackoffAfter2xx } from './listenerBackoff.js';
import { holdApp } from '../../store/rows/apps.js';
import { insertEvent } from '../../store/rows/events.js';
import { newEventId } from '../ids.js';
import type { AttemptResult, FailureReason } from './listenerCall.js';
import { callAppListener } from './listenerTransport.js';
import { appReceives } from '../subscriptions.js';
import { flockAnswerWithOurNames } from './flockNaming.js';

export type SyncDeliveryResult =
  | { ok: true; status: number; body: unknown; eventId: string }
  | { ok: false; reason: 'no_listener' | 'not_subscribed' | FailureReason | 'http_error'; status?: number; description: string; eventId: string; internalAddress?: true };

/** A synchronous answer may carry an attachment or a toast; nothing needs more than this. */
const maxSyncAnswerBytes = 256 * 1024;

/**
 * Sends an event and waits for the listener's answer (`app.install`, `chat.generateUrlPreview`,
 * `client.*` sent to the listener): one attempt, never retried, recorded like any other. A 2xx within
 * `timeoutMs` is `ok`, with the body parsed as JSON when it is JSON (else its text, or null when empty).
 * A 2xx also ends the app's listener backoff, if it had one: its waiting events go at once. An event
 * the app did not subscribe to is neither sent nor recorded (`not_subscribed`).
 */
export async function deliverSynchronously(
  ctx: Pick<EventsContext, 'db' | 'now' | 'events' | 'requestId'> & Partial<Pick<EventsContext, 'log'>>,
  input: { appId: string; userId: string; event: AnyEvent; timeoutMs: number },
): Promise<SyncDeliveryResult> {
  const app = await ctx.db
    .selectFrom('apps')
    .select(['id', 'secret', 'previous_secret', 'previous_secret_until', 'listener_url', 'flock_naming', 'event_subscriptions'])
    .where('id', '=', input.appId)
    .executeTakeFirstOrThrow();
  const startedAt = ctx.now();
  const eventId = newEventId(startedAt);
  if (!appReceives(app, input.event.name)) {
    return { ok: false, reason: 'not_subscribed', description: `the app did not subscribe to ${input.event.name}`, eventId };
  }
  const flockNaming = app.flock_naming === 1;
  const body = JSON.stringify(flockNaming ? flockNamedEvent(input.event) : input.event);
  const result: AttemptResult = await callAppListener(ctx.events, app, {
    body,
    headers: listenerHeaders(
      { appId: app.id, appSecret: app.secret, previousSecret: app.previous_secret, previousSecretUntil: app.previous_secret_until, userId: input.userId, eventId, retryNum: 0, flockNaming },
      body,
      startedAt,
    ),
    answerTimeoutMs: input.timeoutMs,
    keepBytes: maxSyncAnswerBytes,
  });
  const answer = syncAnswer(result, eventId, result !== noListenerResult, flockNaming);
  const finishedAt = ctx.now();
  const released = await ctx.db.transaction().execute(async (tx) => {
    // Deleted while its listener answered: nothing is left to record it in.
    if (!(await holdApp(tx, app.id))) return undefined;
    await insertEvent(tx, {
      id: eventId,
      app_id: app.id,
      user_id: input.userId,
      name: input.event.name,
      payload: JSON.stringify(withoutTokens(input.event)),
      synchronous: 1,
      status: answer.ok ? 'delivered' : 'failed',
      retry_num: 0,
      next_attempt_at: null,
      last_reason: answer.ok ? null : answer.reason,
      last_error: answer.ok ? null : answer.description,
      delivered_at: answer.ok ? finishedAt : null,
      claimed_until: null,
      claim_token: null,
      created_at: startedAt,
      updated_at: finishedAt,
    });
    await insertAttempt(tx, {
      eventId,
      appId: app.id,
      retryNum: 0,
      startedAt,
      result,
      outcome: answer.ok ? 'delivered' : 'failed',
      reason: answer.ok ? null : answer.reason,
      error: answer.ok ? null : answer.description,
    });
    return answer.ok ? endBackoffAfter2xx(tx, app.id, finishedAt) : undefined;
  });
  ctx.events.deliveryChanged(app.id, [eventId]);
  if (ctx.log) {
    const failure = answer.ok ? {} : { reason: answer.reason, error: answer.description, ...(answer.status !== undefined ? { status: answer.status } : {}) };
    const cause = ctx.requestId === undefined ? {} : { requestId: ctx.requestId };
    logSyncDelivery(ctx.log, { appId: app.id, eventId, event: input.event.name, latencyMs: result.durationMs, ...cause, ...(answer.ok ? { status: answer.status } : failure) });
  }
  if (released !== undefined) {
    // The install command's context has no log; its release still happens.
    if (ctx.log) logListenerNews(ctx.log, { kind: 'recovered', appId: app.id, eventId, released });
    ctx.events.wake();
  }
  return answer;
}

function syncAnswer(result: AttemptResult, eventId: string, hasListener: boolean, flockNaming: boolean): SyncDeliveryResult {
  if (!hasListener) return { ok: false, reason: 'no_listener', description: 'the app has no event listener URL', eventId };
  if (result.kind === 'unanswered') return { ok: false, reason: result.reason, description: result.error, eventId, internalAddress: result.internalAddress };
  if (result.status >= 200 && result.status < 300) {
    const body = parseBody(result.body);
    return { ok: true, status: result.status, body: flockNaming ? flockAnswerWithOurNames(body) : body, eventId };
  }
  return { ok: false, reason: 'http_error', status: result.status, description: `the listener answered HTTP ${result.status}`, eventId };
}

function parseBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The outbox keeps what was sent for the developer to see, but never a user's token or a response URL in the clear. */
function withoutTokens(event: AnyEvent): AnyEvent {
  if (event.name === 'app.install') return { ...event, token: '[redacted]', userToken: '[redacted]' };
  return 'responseUrl' in event && event.responseUrl !== undefined ? { ...event, responseUrl: responseUrlRedacted(event.responseUrl) } : event;
}

/** The URL without its token: the rows keep only the token's hash, and so does the log. */
const responseUrlRedacted = (url: string): string => url.replace(/[^/]*$/, '[redacted]');
