import type { EventName, TestEventOverrides, TestEventResult } from '@aviary/protocol';
import { invalidParameter } from '../../errors.js';
import { keptTestAnswerBytes, sendTestEvent } from '../../events/delivery/testEvent.js';
import { callListener } from '../../events/delivery/listenerCall.js';
import { newEventId } from '../../events/ids.js';
import type { AppsTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { readIntegrations } from '../integrations.js';
import { buildWidgetUrl } from '../widgetUrl.js';
import { planTestEvent } from './plan.js';

export type TestEventContext = Pick<CoreContext, 'db' | 'now' | 'events'>;
type TestApp = Pick<AppsTable, 'id' | 'secret' | 'previous_secret' | 'previous_secret_until' | 'listener_url' | 'integrations'>;

/**
 * A test event from `person` (core/testEvents/plan.ts), sent where a real one goes: a widget event whose
 * integration opens a widget or browser page is that URL, signed as the client would get it and loaded
 * with a GET; any other goes to the app as a delivery does (`forwardTo`: to that URL instead).
 */
export async function sendPlannedTestEvent(
  ctx: TestEventContext,
  app: TestApp,
  person: Pick<UsersTable, 'id' | 'first_name' | 'last_name'>,
  name: EventName,
  overrides: TestEventOverrides,
  forwardTo?: string,
): Promise<TestEventResult> {
  const chatName = overrides.chat === undefined ? undefined : await nameOfChat(ctx.db, overrides.chat);
  const plan = planTestEvent(name, { id: person.id, firstName: person.first_name, lastName: person.last_name }, readIntegrations(app), { ...overrides, chatName });
  if (plan.to === 'listener') return sendTestEvent(ctx, app, person, plan.event, forwardTo);
  const { event } = plan;
  const url = await buildWidgetUrl(ctx, { appId: app.id, url: plan.url, event, client: 'desktop', widgetType: plan.widgetType, parameter: 'url', ...(plan.route === 'browser' ? { route: 'browser', sendContext: plan.sendContext } : { route: 'widget' }) });
  const result = await callListener(ctx.events.agent, { url, method: 'GET', body: '', headers: {}, answerTimeoutMs: ctx.events.settings.answerTimeoutMs, keepBytes: keptTestAnswerBytes });
  const sent = { eventId: newEventId(ctx.now()), event, via: 'widget', url, durationMs: Math.round(result.durationMs) } as const;
  if (result.kind === 'unanswered') return { ...sent, status: null, answer: null, reason: result.reason, detail: result.error };
  return { ...sent, status: result.status, answer: result.body.toString('utf8'), reason: null, detail: null };
}

/** A chat's name as events carry it: a channel's name, a person's full name. */
async function nameOfChat(db: Db, chat: string): Promise<string> {
  const channel = await db.selectFrom('channels').select('name').where('id', '=', chat).executeTakeFirst();
  if (channel) return channel.name;
  const user = await db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', chat).executeTakeFirst();
  if (user) return `${user.first_name} ${user.last_name}`;
  throw invalidParameter('chat', `There is no chat ${JSON.stringify(chat)}: give a channel id (g:…) or a person's id (u:…).`);
}
