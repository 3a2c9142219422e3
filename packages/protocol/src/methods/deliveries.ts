/**
 * An app's event deliveries (its delivery log), its developer's alone, or the app's own with its secret:
 * events carry what people sent the app (direct and private-channel messages to its bot), which a team
 * admin has no reason to read.
 */
import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { eventNames } from '../events.js';
import { closedObject, oneOf } from '../params.js';
import { AppIdParam } from './fields.js';
import { deliveryStatuses, DeliveredEvent, DeliveryAttempt, TestEventOverrides, TestEventResult } from './developerModels.js';

const EventIdParam = Type.String({ minLength: 1, maxLength: 100, description: 'an event id (ev_…)' });
const EventName = oneOf(eventNames, 'one of the ten event names, such as client.slashCommand');
const oneEvent = closedObject({ appId: AppIdParam, eventId: EventIdParam });

/** Every method here: the app's developer's or the app's own, refused (as unknown, or not theirs) to anyone else. */
const developerOrApp = { callers: ['session', 'appSecret'], errors: ['UnknownApp', 'PermissionDenied'] } as const;
/** A change to how the app's events are delivered. */
const deliveryChange = { ...developerOrApp, rateClass: 'channel', params: closedObject({ appId: AppIdParam }) } as const;

export const list = defineMethod({
  ...developerOrApp,
  name: 'deliveries.list',
  summary: 'The app’s events, newest first, optionally of one status and one event name; while delivery is paused, waiting events show as paused.',
  rateClass: 'read',
  params: closedObject({
    appId: AppIdParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'a whole number from 1 to 200 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an event id: the page after it' })),
    status: Type.Optional(oneOf(deliveryStatuses, 'pending, delivered, failed or paused')),
    name: Type.Optional(EventName),
  }),
  result: closedObject({ events: Type.Array(DeliveredEvent) }),
});

export const listAttempts = defineMethod({
  ...developerOrApp,
  name: 'deliveries.listAttempts',
  summary: 'The attempts of one event of the app, in order.',
  rateClass: 'read',
  params: oneEvent,
  result: closedObject({ attempts: Type.Array(DeliveryAttempt) }),
});

export const replay = defineMethod({
  ...deliveryChange,
  name: 'deliveries.replay',
  summary: 'Send an asynchronous event again as new: the same id, retry number 0, due now.',
  params: oneEvent,
  result: closedObject({ replayed: Type.Literal(true) }),
});

export const replayFailed = defineMethod({
  ...deliveryChange,
  name: 'deliveries.replayFailed',
  summary:
    'Send every failed asynchronous event of the app again, as deliveries.replay does one; answers how many. Failed synchronous events stay failed: nobody waits for their answer any more.',
  result: closedObject({ replayed: Type.Integer({ minimum: 0 }) }),
});

export const pause = defineMethod({
  ...deliveryChange,
  name: 'deliveries.pause',
  summary: 'Pause asynchronous delivery: events wait (shown as paused) until deliveries.resume; pausing a paused app keeps its first pause time.',
  result: closedObject({ paused: Type.Literal(true) }),
});

export const resume = defineMethod({
  ...deliveryChange,
  name: 'deliveries.resume',
  summary: 'End a pause: the failure streak starts afresh and every waiting event is due at once.',
  result: closedObject({ resumed: Type.Literal(true) }),
});

export const sendTestEvent = defineMethod({
  ...deliveryChange,
  name: 'deliveries.sendTestEvent',
  summary:
    'Send a realistic example of one of the ten events (or the payload given, or the example with the fields given), from the caller (the app’s developer when the app calls), signed as every delivery is, where a real one goes: the app (its open `aviary listen` connection, else its listener URL), or the widget URL its integration opens. Answers with what came back. Nothing is recorded in the delivery log.',
  params: closedObject({ appId: AppIdParam, name: EventName, ...TestEventOverrides }),
  errors: [...developerOrApp.errors, 'OriginNotAllowed'],
  result: TestEventResult,
});
