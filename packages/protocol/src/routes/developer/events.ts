/**
 * The app's event deliveries, its developer's alone: events carry what people sent the app (direct and
 * private-channel messages to its bot), which a team admin has no reason to read.
 */
import { Type } from '@sinclair/typebox';
import { eventNames } from '../../events.js';
import { oneOf } from '../../params.js';
import { deliveryStatuses, DeliveredEvent, DeliveryAttempt, TestEventOverrides, TestEventResult } from '../developerModels.js';
import { defineRoute } from '../define.js';
import { AppIdParam, AppInPath, closedObject } from '../fields.js';

const EventIdParam = Type.String({ minLength: 1, maxLength: 100, description: 'an event id (ev_…)' });
const EventName = oneOf(eventNames, 'one of the ten event names, such as client.slashCommand');
const oneEvent = Type.Object({ id: AppIdParam, eventId: EventIdParam });

/** Every route here: the signed-in developer's, refused (as unknown, or not theirs) to anyone else. */
const developerOnly = { callers: ['session'], errors: ['UnknownApp', 'PermissionDenied'] } as const;
/** A change to how the app's events are delivered: a POST on the app. */
const deliveryChange = { ...developerOnly, verb: 'POST', params: AppInPath } as const;

export const listEvents = defineRoute({
  ...developerOnly,
  name: 'developer.listEvents',
  summary: 'The app’s events, newest first, optionally of one status and one event name; while delivery is paused, waiting events show as paused.',
  verb: 'GET',
  path: '/api/developer/apps/:id/events',
  params: Type.Object({
    id: AppIdParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'a whole number from 1 to 200 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an event id: the page after it' })),
    status: Type.Optional(oneOf(deliveryStatuses, 'pending, delivered, failed or paused')),
    name: Type.Optional(EventName),
  }),
  result: closedObject({ events: Type.Array(DeliveredEvent) }),
});

export const listEventAttempts = defineRoute({
  ...developerOnly,
  name: 'developer.listEventAttempts',
  summary: 'The attempts of one event of the app, in order.',
  verb: 'GET',
  path: '/api/developer/apps/:id/events/:eventId/attempts',
  params: oneEvent,
  result: closedObject({ attempts: Type.Array(DeliveryAttempt) }),
});

export const replayEvent = defineRoute({
  ...deliveryChange,
  name: 'developer.replayEvent',
  summary: 'Send an asynchronous event again as new: the same id, retry number 0, due now.',
  path: '/api/developer/apps/:id/events/:eventId/replay',
  params: oneEvent,
  result: closedObject({ replayed: Type.Literal(true) }),
});

export const pauseDelivery = defineRoute({
  ...deliveryChange,
  name: 'developer.pauseDelivery',
  summary: 'Pause asynchronous delivery: events wait (shown as paused) until resumeDelivery; pausing a paused app keeps its first pause time.',
  path: '/api/developer/apps/:id/delivery/pause',
  result: closedObject({ paused: Type.Literal(true) }),
});

export const resumeDelivery = defineRoute({
  ...deliveryChange,
  name: 'developer.resumeDelivery',
  summary: 'End a pause: the failure streak starts afresh and every waiting event is due at once.',
  path: '/api/developer/apps/:id/delivery/resume',
  result: closedObject({ resumed: Type.Literal(true) }),
});

export const replayFailedEvents = defineRoute({
  ...deliveryChange,
  name: 'developer.replayFailedEvents',
  summary: 'Send every failed asynchronous event of the app again, as replayEvent does one; answers how many. Failed synchronous events stay failed: nobody waits for their answer any more.',
  path: '/api/developer/apps/:id/events/replay-failed',
  result: closedObject({ replayed: Type.Integer({ minimum: 0 }) }),
});

export const sendTestEvent = defineRoute({
  ...deliveryChange,
  name: 'developer.sendTestEvent',
  summary:
    'Send a realistic example of one of the ten events (or the payload given, or the example with the fields given), from the caller, signed as every delivery is, where a real one goes: the app (its open `aviary listen` connection, else its listener URL), or the widget URL its integration opens. Answers with what came back. Nothing is recorded in the delivery log.',
  path: '/api/developer/apps/:id/test-events',
  params: Type.Object({ id: AppIdParam, name: EventName, ...TestEventOverrides }),
  errors: [...developerOnly.errors, 'OriginNotAllowed'],
  result: TestEventResult,
});
