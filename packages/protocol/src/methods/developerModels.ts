/** What the developer methods (apps.* of an app's developer, deliveries.*) answer with: apps as their developer sees them, and their event deliveries. */
import { Type, type Static } from '@sinclair/typebox';
import { AnyEvent, clientButtonKinds } from '../events.js';
import { Integrations } from '../integrations.js';
import { ChatId, UserId } from '../ids.js';
import { oneOf } from '../params.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableTime = Type.Union([Type.Integer(), Type.Null()], { description: 'milliseconds since the epoch, or null' });

/** An app as its developer (or a team admin of its team) sees it. Never a token hash. */
export const DeveloperApp = Type.Object(
  {
    id: Type.String(),
    teamId: Type.String(),
    developerId: UserId,
    name: Type.String(),
    description: Type.String(),
    icon: NullableString,
    listenerUrl: NullableString,
    configurationUrl: NullableString,
    integrations: Integrations,
    /** Origins besides the listener, configuration and integration URLs that may receive its widget and browser tokens. */
    allowedOrigins: Type.Array(Type.String()),
    /** Flock-compatible naming (docs/flock-compatibility.md). */
    flockNaming: Type.Boolean(),
    /** The events the app receives; null: the defaults (docs/reference/event-subscriptions.md). */
    eventSubscriptions: Type.Union([Type.Array(Type.String()), Type.Null()]),
    botUserId: Type.Union([UserId, Type.Null()]),
    disabledByTeam: Type.Boolean(),
    /** When asynchronous delivery was paused after days of failures; null while it runs. */
    deliveryPausedAt: NullableTime,
    createdAt: Type.Integer(),
    updatedAt: Type.Integer(),
    /** Only for the app's developer: the key its event tokens are signed with. */
    secret: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** `paused`: waiting, but the app's delivery is paused until its developer resumes it. */
export const deliveryStatuses = ['pending', 'delivered', 'failed', 'paused'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** An event sent to an app, as its developer sees it. */
export const DeliveredEvent = Type.Object(
  {
    id: Type.String(),
    appId: Type.String(),
    userId: UserId,
    name: Type.String(),
    /** As sent; a synchronous event's user tokens show as `[redacted]`. */
    event: AnyEvent,
    synchronous: Type.Boolean(),
    status: oneOf(deliveryStatuses),
    /** The next attempt's number: how many have failed since the event was made or replayed. */
    retryNum: Type.Integer({ minimum: 0 }),
    /**
     * When a pending event goes next. One that failed waits for its app's listener: this is then when the
     * listener is tried again (with the app's oldest waiting event); a 2xx from it sends the rest at once.
     */
    nextAttemptAt: NullableTime,
    lastReason: NullableString,
    lastError: NullableString,
    createdAt: Type.Integer(),
    updatedAt: Type.Integer(),
    deliveredAt: NullableTime,
    /**
     * A widget or browser page opened with the event (an extension): the URL without its query (which
     * carries the token). Such an event went to the person's client, not the listener, and has no attempts.
     */
    openedUrl: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const attemptOutcomes = ['delivered', 'retry', 'failed'] as const;

/** One attempt to deliver an event to the app's listener. */
export const DeliveryAttempt = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String(),
    retryNum: Type.Integer({ minimum: 0 }),
    startedAt: Type.Integer(),
    durationMs: Type.Integer({ minimum: 0 }),
    /** The listener's HTTP status; null when it did not answer. */
    status: Type.Union([Type.Integer(), Type.Null()]),
    reason: NullableString,
    error: NullableString,
    /** The first 1 KiB of the answer's body. */
    responseSnippet: NullableString,
    outcome: oneOf(attemptOutcomes),
  },
  { additionalProperties: false },
);

/** Why a test event got no answer: the app has neither a listen connection nor a listener URL, or the call failed. */
export const testEventFailures = ['no_listener', 'timeout', 'connection_failed'] as const;

/** What a test event met: the listener's answer (any status), or why there was none. */
/**
 * What a test event may change in the example it starts from (`aviary trigger`, the dashboard's "Send a
 * test event"): the whole event as `payload`, or single fields. Without them a slash command or a button
 * is the app's own first one from its integrations, so that its handlers answer something.
 */
export const TestEventOverrides = {
  payload: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "the whole event, as JSON; its name and userId are the test's own" })),
  command: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'client.slashCommand: the command, without the slash' })),
  text: Type.Optional(Type.String({ maxLength: 4000, description: "client.slashCommand: the text after the command" })),
  button: Type.Optional(oneOf([...clientButtonKinds, 'attachmentButton'] as const, 'client.pressButton: which button')),
  buttonId: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "client.pressButton: an attachment button's id" })),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "chat.generateUrlPreview: the link; client.openAttachmentWidget: the widget's URL" })),
  chat: Type.Optional(ChatId),
};

const testEventOverridesObject = Type.Object(TestEventOverrides);
export type TestEventOverrides = Static<typeof testEventOverridesObject>;

export const TestEventResult = Type.Object(
  {
    eventId: Type.String(),
    /** The event as sent. */
    event: AnyEvent,
    /**
     * `listen`: an open `aviary listen` connection took it; `listener`: a POST to the listener URL;
     * `widget`: a GET of the widget (or browser) URL the event opens, signed, as a client would load it.
     */
    via: oneOf(['listener', 'listen', 'widget'] as const),
    /** The listener or widget URL it went to, when it went to one. */
    url: NullableString,
    /** The listener's HTTP status; null when it did not answer. */
    status: Type.Union([Type.Integer(), Type.Null()]),
    durationMs: Type.Integer({ minimum: 0 }),
    /** The answer's body as text (its first 64 KiB); null when there was no answer. */
    answer: NullableString,
    reason: Type.Union([oneOf(testEventFailures), Type.Null()]),
    /** What went wrong, in words (not `error`: this is an answer, not a refusal). */
    detail: NullableString,
  },
  { additionalProperties: false },
);

export const BotCredentials = Type.Object({ botUserId: UserId, botToken: Type.String() }, { additionalProperties: false });

export type DeveloperApp = Static<typeof DeveloperApp>;
export type DeliveredEvent = Static<typeof DeliveredEvent>;
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;
export type TestEventResult = Static<typeof TestEventResult>;
