/**
 * The ten events as OpenAPI webhooks: what the service POSTs to an app's event listener, with the
 * headers that come along and the answers the service reads. The widget-only events travel in a widget
 * URL's `serviceEvent` parameter instead; they are listed all the same, for their shape.
 */
import type { TSchema } from '@sinclair/typebox';
import { eventAnswerSchemas } from './eventAnswers.js';
import { eventExamples } from './eventExamples.js';
import { eventHeaders, eventNames, eventSchemas, isWidgetEventName, retryReasons, type EventName } from './events.js';
import { toJsonSchema, type JsonSchema } from './jsonSchema.js';

export interface OpenApiWebhook {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: Array<{ name: string; in: 'header'; required: boolean; description: string; schema: JsonSchema }>;
  requestBody: { required: true; content: { 'application/json': { schema: JsonSchema; example: unknown } } };
  responses: Record<string, { description: string; headers?: Record<string, { description: string; schema: JsonSchema }>; content?: Record<string, { schema: JsonSchema }> }>;
}

/** Delivered only in a widget URL, never to the listener. */
const widgetOnly: ReadonlySet<EventName> = new Set(['client.openAttachmentWidget', 'client.widgetAction']);
/** The events the service waits for: one attempt, never retried. */
const synchronous: ReadonlySet<EventName> = new Set([
  'app.install',
  'chat.generateUrlPreview',
  'client.pressButton',
  'client.slashCommand',
  'client.messageAction',
  'client.servicemlAction',
]);

const headers: OpenApiWebhook['parameters'] = [
  {
    name: eventHeaders.token,
    in: 'header',
    required: true,
    description: 'the event token (JWS, HS256, keyed with the app secret); check it before trusting the body',
    schema: { type: 'string' },
  },
  { name: eventHeaders.eventId, in: 'header', required: true, description: 'the event id, the same as the token’s jti; not signed', schema: { type: 'string' } },
  { name: eventHeaders.retryNum, in: 'header', required: true, description: '0 on the first attempt', schema: { type: 'integer', minimum: 0 } },
  { name: eventHeaders.retryReason, in: 'header', required: false, description: 'why the previous attempt failed', schema: { enum: [...retryReasons] } },
  {
    name: eventHeaders.previousToken,
    in: 'header',
    required: false,
    description: 'for 24 hours after a secret rotation: the same token signed with the previous app secret; a listener accepts the event if either verifies',
    schema: { type: 'string' },
  },
];

export function eventWebhooks(): Record<string, { post: OpenApiWebhook }> {
  return Object.fromEntries(eventNames.map((name) => [name, { post: webhook(name) }]));
}

function webhook(name: EventName): OpenApiWebhook {
  const schema = toJsonSchema(eventSchemas[name]);
  const answer: TSchema | undefined = (eventAnswerSchemas as Partial<Record<EventName, TSchema>>)[name];
  return {
    operationId: `${name.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase())}Event`,
    summary: String(schema.description ?? name),
    description: deliveryOf(name),
    tags: ['events'],
    parameters: headers,
    requestBody: { required: true, content: { 'application/json': { schema, example: eventExamples[name] } } },
    responses: {
      '200': {
        description: answer ? 'Taken; the body may carry an answer the service reads' : 'Taken (any 2xx); the body is ignored',
        ...(answer ? { content: { 'application/json': { schema: toJsonSchema(answer) } } } : {}),
      },
      default: {
        description: 'Not taken. Only asynchronous events are retried: after a time-out, a connection failure, 5xx, 408 or 429.',
        headers: { [eventHeaders.noRetry]: { description: '1 asks the service not to retry the event', schema: { const: '1' } } },
      },
    },
  };
}

function deliveryOf(name: EventName): string {
  if (widgetOnly.has(name)) return 'Delivered only in the serviceEvent parameter of the widget or browser URL it opens.';
  const listener = synchronous.has(name)
    ? 'POSTed to the event listener, which is waited for: one attempt, never retried.'
    : 'POSTed to the event listener from the outbox: at least once, retried on failure.';
  return isWidgetEventName(name) ? `${listener} When the integration's action opens a widget or a browser page, delivered in its URL instead.` : listener;
}
