import type { AnyEvent, TestEventResult } from '@aviary/protocol';
import type { EventsContext } from '../context.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import { listenerHeaders, noListenerResult } from './attempts.js';
import { callListener } from './listenerCall.js';
import { callAppListener } from './listenerTransport.js';
import { newEventId } from '../ids.js';

/** How much of the answer is shown: event answers are small, a page of HTML is not. */
export const keptTestAnswerBytes = 64 * 1024;

/**
 * Sends a test event from `person` to the app as a delivery goes (its listen connection, else its
 * listener URL; `forwardTo` instead, for `aviary trigger --forward-to`), signed as every delivery is, and
 * gives back what came of it. Nothing is recorded: a test event is not one of the app's events.
 */
export async function sendTestEvent(
  ctx: Pick<EventsContext, 'now' | 'events'>,
  app: Pick<AppsTable, 'id' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'listener_url'>,
  person: Pick<UsersTable, 'id'>,
  event: AnyEvent,
  forwardTo?: string,
): Promise<TestEventResult> {
  const body = JSON.stringify(event);
  const now = ctx.now();
  const eventId = newEventId(now);
  const via = forwardTo === undefined && ctx.events.tunnels.has(app.id) ? 'listen' : 'listener';
  const headers = listenerHeaders(
    { appId: app.id, appSecret: app.secret, previousSecret: app.previous_secret, previousSecretUntil: app.previous_secret_until, userId: person.id, eventId, retryNum: 0 },
    body,
    now,
  );
  const call = { body, headers, answerTimeoutMs: ctx.events.settings.answerTimeoutMs, keepBytes: keptTestAnswerBytes };
  const result = await (forwardTo === undefined ? callAppListener(ctx.events, app, call) : callListener(ctx.events.agent, { ...call, url: forwardTo }));
  const sent = { eventId, event, via, url: via === 'listener' ? (forwardTo ?? app.listener_url) : null, durationMs: Math.round(result.durationMs) } as const;
  if (result === noListenerResult) return { ...sent, status: null, answer: null, reason: 'no_listener', detail: 'The app has no listener URL and no open `aviary listen` connection.' };
  if (result.kind === 'unanswered') return { ...sent, status: null, answer: null, reason: result.reason, detail: result.error };
  return { ...sent, status: result.status, answer: result.body.toString('utf8'), reason: null, detail: null };
}
