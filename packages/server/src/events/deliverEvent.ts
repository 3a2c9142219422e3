import type { ServerContext } from '../context.js';
import type { EventsTable } from '../store/schema.js';
import { insertAttempt, listenerHeaders, noListenerResult } from './attempts.js';
import { releaseClaims } from './claim.js';
import { trackDeliveryHealth, type AppForDelivery } from './deliveryHealth.js';
import { callListener, type AttemptResult } from './listenerCall.js';
import { responseSnippetBytes } from './settings.js';
import { judgeAttempt, type Verdict } from './verdict.js';

/**
 * One attempt at a claimed asynchronous event: sign, POST, then record the attempt and the event's next
 * state in one short transaction (none is open during the HTTP call). `cancel` abandons the attempt at
 * shutdown: the claim is given back and nothing is recorded, so the event goes again at once elsewhere.
 */
export async function deliverClaimedEvent(ctx: ServerContext, event: EventsTable, cancel: AbortSignal): Promise<void> {
  const app: AppForDelivery = await ctx.db
    .selectFrom('apps')
    .select(['id', 'name', 'team_id', 'developer_id', 'secret', 'listener_url', 'delivery_failing_since'])
    .where('id', '=', event.app_id)
    .executeTakeFirstOrThrow();
  const startedAt = ctx.now();
  const result = app.listener_url
    ? await callListener(ctx.events.agent, {
        url: app.listener_url,
        body: event.payload,
        headers: await listenerHeaders(
          { appId: app.id, appSecret: app.secret, userId: event.user_id, eventId: event.id, retryNum: event.retry_num, retryReason: event.last_reason },
          startedAt,
        ),
        answerTimeoutMs: ctx.events.settings.answerTimeoutMs,
        keepBytes: responseSnippetBytes,
        cancel,
      })
    : noListenerResult;
  if (result.kind === 'cancelled') {
    await releaseClaims(ctx.store, [event]);
    return;
  }
  const finishedAt = ctx.now();
  await recordAsyncAttempt(ctx, { event, app, startedAt, finishedAt, result, verdict: judgeAttempt(result, event.retry_num + 1, finishedAt) });
}

async function recordAsyncAttempt(
  ctx: ServerContext,
  input: { event: EventsTable; app: AppForDelivery; startedAt: number; finishedAt: number; result: AttemptResult; verdict: Verdict },
): Promise<void> {
  const { event, verdict, finishedAt: now } = input;
  const failure = verdict.outcome === 'delivered' ? null : verdict;
  await ctx.db.transaction().execute(async (tx) => {
    await insertAttempt(tx, {
      eventId: event.id,
      appId: event.app_id,
      retryNum: event.retry_num,
      startedAt: input.startedAt,
      result: input.result,
      outcome: verdict.outcome,
      reason: failure?.reason ?? null,
      error: failure?.error ?? null,
    });
    const released = { claimed_until: null, claim_token: null, updated_at: now };
    const next =
      verdict.outcome === 'delivered'
        ? { ...released, status: 'delivered' as const, delivered_at: now, next_attempt_at: null, last_reason: null, last_error: null }
        : verdict.outcome === 'retry'
          ? { ...released, retry_num: event.retry_num + 1, next_attempt_at: now + verdict.retryInMs, last_reason: verdict.reason, last_error: verdict.error }
          : { ...released, status: 'failed' as const, next_attempt_at: null, last_reason: verdict.reason, last_error: verdict.error };
    // Only while our claim stands: a replay (or, after a lost lease, another worker) owns the event now.
    await tx.updateTable('events').set(next).where('id', '=', event.id).where('claim_token', '=', event.claim_token).execute();
    await trackDeliveryHealth(tx, input.app, { delivered: failure === null, error: failure?.error ?? '', at: now });
  });
}
