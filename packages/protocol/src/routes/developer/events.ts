/**
 * The app's event deliveries, its developer's alone: events carry what people sent the app (direct and
 * private-channel messages to its bot), which a team admin has no reason to read.
 */
import { Type } from '@sinclair/typebox';
import { eventNames } from '../../events.js';
import { oneOf } from '../../params.js';
import { deliveryStatuses, DeliveredEvent, DeliveryAttempt, TestEventResult } from '../developerModels.js';
import { defineRoute } from '../define.js';
import { AppIdParam } from '../fields.js';

const EventIdParam = Type.String({ minLength: 1, maxLength: 100, description: 'an event id (ev_…)' });
const developerOnly = ['UnknownApp', 'PermissionDenied'] as const;

export const listEvents = defineRoute({
  name: 'developer.listEvents',
  summary: 'The app’s events, newest first, optionally of one status and one event name; while delivery is paused, waiting events show as paused.',
  verb: 'GET',
  path: '/api/developer/apps/:id/events',
  auth: 'session',
  params: Type.Object({
    id: AppIdParam,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'a whole number from 1 to 200 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an event id: the page after it' })),
    status: Type.Optional(oneOf(deliveryStatuses, 'pending, delivered, failed or paused')),
    name: Type.Optional(oneOf(eventNames, 'one of the ten event names, such as client.slashCommand')),
  }),
  result: Type.Object({ events: Type.Array(DeliveredEvent) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const listEventAttempts = defineRoute({
  name: 'developer.listEventAttempts',
  summary: 'The attempts of one event of the app, in order.',
  verb: 'GET',
  path: '/api/developer/apps/:id/events/:eventId/attempts',
  auth: 'session',
  params: Type.Object({ id: AppIdParam, eventId: EventIdParam }),
  result: Type.Object({ attempts: Type.Array(DeliveryAttempt) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const replayEvent = defineRoute({
  name: 'developer.replayEvent',
  summary: 'Send an asynchronous event again as new: the same id, retry number 0, due now.',
  verb: 'POST',
  path: '/api/developer/apps/:id/events/:eventId/replay',
  auth: 'session',
  params: Type.Object({ id: AppIdParam, eventId: EventIdParam }),
  result: Type.Object({ replayed: Type.Literal(true) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const pauseDelivery = defineRoute({
  name: 'developer.pauseDelivery',
  summary: 'Pause asynchronous delivery: events wait (shown as paused) until resumeDelivery; pausing a paused app keeps its first pause time.',
  verb: 'POST',
  path: '/api/developer/apps/:id/delivery/pause',
  auth: 'session',
  params: Type.Object({ id: AppIdParam }),
  result: Type.Object({ paused: Type.Literal(true) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const resumeDelivery = defineRoute({
  name: 'developer.resumeDelivery',
  summary: 'End a pause: the failure streak starts afresh and every waiting event is due at once.',
  verb: 'POST',
  path: '/api/developer/apps/:id/delivery/resume',
  auth: 'session',
  params: Type.Object({ id: AppIdParam }),
  result: Type.Object({ resumed: Type.Literal(true) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const replayFailedEvents = defineRoute({
  name: 'developer.replayFailedEvents',
  summary: 'Send every failed asynchronous event of the app again, as replayEvent does one; answers how many. Failed synchronous events stay failed: nobody waits for their answer any more.',
  verb: 'POST',
  path: '/api/developer/apps/:id/events/replay-failed',
  auth: 'session',
  params: Type.Object({ id: AppIdParam }),
  result: Type.Object({ replayed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  errors: developerOnly,
});

export const sendTestEvent = defineRoute({
  name: 'developer.sendTestEvent',
  summary:
    'Send a realistic example of one of the ten events, from the caller, signed as every delivery is, to the app (its open `aviary listen` connection, else its listener URL), and answer with what came back. Nothing is recorded in the delivery log.',
  verb: 'POST',
  path: '/api/developer/apps/:id/test-events',
  auth: 'session',
  params: Type.Object({ id: AppIdParam, name: oneOf(eventNames, 'one of the ten event names, such as client.slashCommand') }),
  result: TestEventResult,
  errors: developerOnly,
});
