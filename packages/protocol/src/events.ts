/**
 * Events the service sends to apps (docs/reference/events.md): the event shapes (each a TypeBox schema and its type), the
 * event token's claims, the listener's HTTP headers and the widget URL's query parameters. The server's
 * event engine builds these; the SDK's listener and widget helpers read them. The schemas are closed
 * (no other attributes): a test holds every event the server sends to exactly these shapes.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { attachmentLimits } from './attachment.js';
import { ChatId, MessageUid, UserId } from './ids.js';
import { maxSlashCommandNameLength, slashCommandNamePattern } from './integrations.js';
import {
  ChannelCreatedEvent,
  ChannelMemberJoinedEvent,
  ChannelMemberLeftEvent,
  ChatMessageDeletedEvent,
  ChatMessageUpdatedEvent,
  ChatReactionAddedEvent,
  ChatReactionRemovedEvent,
} from './eventExtensions.js';
import { Message } from './models.js';
import { oneOf } from './params.js';

/** `client.messageAction` omits `messages` beyond this many selected messages. */
export const maxMessageActionMessages = 25;

/** The most messages one message action may be run on. */
export const maxMessageActionSelection = 100;

const closed = { additionalProperties: false } as const;
const AttachmentId = Type.String({ minLength: 1, maxLength: attachmentLimits.idLength, description: 'the attachment’s id, as its app chose it' });

/** Attributes every `client.*` event carries besides its own. */
const clientEventCommon = {
  userId: UserId,
  /** The person's name as shown: "Ada Lovelace". */
  userName: Type.String(),
  /** The chat the user acted in: a user id (direct chat, the other person's) or a channel id. */
  chat: ChatId,
  /** The channel's name, or the other person's name in a direct chat. */
  chatName: Type.String(),
};
export const ClientEventCommon = Type.Object(clientEventCommon, closed);

/** The most replies an app may POST to one event's `responseUrl`, and for how long after the event. */
export const responseUrlLimits = { uses: 5, lifetimeMs: 30 * 60 * 1000 } as const;

/**
 * An Aviary extension: the events of a person's action that reach the listener carry a URL the app may
 * POST up to five replies to within 30 minutes, however it answered (docs/reference/events.md,
 * "Replying later: responseUrl"). Absent when the event went to a widget or browser URL instead.
 */
const responseUrl = {
  responseUrl: Type.Optional(Type.String({ pattern: '^https?://', description: 'Aviary extension: where to POST up to 5 replies within 30 minutes' })),
};
export type ClientEventCommon = Static<typeof ClientEventCommon>;

export const AppInstallEvent = Type.Object(
  {
    name: Type.Literal('app.install'),
    userId: UserId,
    /** The user token; `userToken` carries the same value. */
    token: Type.String(),
    userToken: Type.String(),
  },
  { ...closed, description: 'a person installs the app; answer 200 within 10 s or the install fails' },
);
export type AppInstallEvent = Static<typeof AppInstallEvent>;

export const AppUninstallEvent = Type.Object(
  { name: Type.Literal('app.uninstall'), userId: UserId },
  { ...closed, description: 'a person uninstalled the app' },
);
export type AppUninstallEvent = Static<typeof AppUninstallEvent>;

export const ChatReceiveMessageEvent = Type.Object(
  {
    name: Type.Literal('chat.receiveMessage'),
    /** The sender. */
    userId: UserId,
    message: Message,
  },
  { ...closed, description: 'a message was sent to the app’s bot' },
);
export type ChatReceiveMessageEvent = Static<typeof ChatReceiveMessageEvent>;

export const ChatGenerateUrlPreviewEvent = Type.Object(
  {
    name: Type.Literal('chat.generateUrlPreview'),
    userId: UserId,
    url: Type.String({ pattern: '^https?://', description: 'the link, as the URL parser writes it' }),
    chat: ChatId,
    /** The same value as `chat`. */
    to: ChatId,
    messageUid: MessageUid,
  },
  { ...closed, description: 'a person who installed the app posted a link of one of its preview domains; answer within 5 s' },
);
export type ChatGenerateUrlPreviewEvent = Static<typeof ChatGenerateUrlPreviewEvent>;

/** The buttons an app adds to the client itself, as `client.pressButton` names them. */
export const clientButtonKinds = ['appLauncherButton', 'chatTabButton', 'attachmentPickerButton', 'appHome'] as const;
export const buttonKinds = [...clientButtonKinds, 'attachmentButton'] as const;
export type ButtonKind = (typeof buttonKinds)[number];

/** Only an attachment's buttons say which message, attachment and button were pressed. */
export const ClientPressButtonEvent = Type.Union(
  [
    Type.Object({ name: Type.Literal('client.pressButton'), ...clientEventCommon, button: oneOf(clientButtonKinds), ...responseUrl }, closed),
    Type.Object(
      {
        name: Type.Literal('client.pressButton'),
        ...clientEventCommon,
        button: Type.Literal('attachmentButton'),
        messageUid: MessageUid,
        attachmentId: AttachmentId,
        buttonId: Type.String({ minLength: 1, maxLength: 255 }),
        ...responseUrl,
      },
      closed,
    ),
  ],
  { description: 'a person pressed one of the app’s buttons' },
);
export type ClientPressButtonEvent = Static<typeof ClientPressButtonEvent>;

export const ClientSlashCommandEvent = Type.Object(
  {
    name: Type.Literal('client.slashCommand'),
    ...clientEventCommon,
    command: Type.String({ pattern: slashCommandNamePattern.source, maxLength: maxSlashCommandNameLength, description: 'the command’s name, without the slash' }),
    /** What follows the command. */
    text: Type.String(),
    ...responseUrl,
  },
  { ...closed, description: 'a person typed one of the app’s slash commands' },
);
export type ClientSlashCommandEvent = Static<typeof ClientSlashCommandEvent>;

export const ClientMessageActionEvent = Type.Object(
  {
    name: Type.Literal('client.messageAction'),
    ...clientEventCommon,
    messageUids: Type.Array(MessageUid, { minItems: 1, maxItems: maxMessageActionSelection }),
    messages: Type.Optional(Type.Array(Message, { maxItems: maxMessageActionMessages, description: `omitted when more than ${maxMessageActionMessages} messages are selected` })),
    ...responseUrl,
  },
  { ...closed, description: 'a person ran the app’s message action on selected messages' },
);
export type ClientMessageActionEvent = Static<typeof ClientMessageActionEvent>;

export const ClientOpenAttachmentWidgetEvent = Type.Object(
  { name: Type.Literal('client.openAttachmentWidget'), ...clientEventCommon, messageUid: MessageUid, attachmentId: AttachmentId },
  { ...closed, description: 'a client shows an attachment’s widget (only ever in the widget’s URL)' },
);
export type ClientOpenAttachmentWidgetEvent = Static<typeof ClientOpenAttachmentWidgetEvent>;

export const ClientWidgetActionEvent = Type.Object(
  {
    name: Type.Literal('client.widgetAction'),
    ...clientEventCommon,
    /** Present when the calling widget was opened from a message or its attachment. */
    messageUid: Type.Optional(MessageUid),
    attachmentId: Type.Optional(AttachmentId),
  },
  { ...closed, description: 'a widget asked the client to open another widget or a browser page (only ever in that URL)' },
);
export type ClientWidgetActionEvent = Static<typeof ClientWidgetActionEvent>;

export const ClientServicemlActionEvent = Type.Object(
  {
    name: Type.Literal('client.servicemlAction'),
    ...clientEventCommon,
    messageUid: MessageUid,
    /** Absent when the `<action>` is in the message's own ServiceML rather than an attachment's. */
    attachmentId: Type.Optional(AttachmentId),
    actionId: Type.String(),
    ...responseUrl,
  },
  { ...closed, description: 'a person clicked an <action> of ServiceML the app sent' },
);
export type ClientServicemlActionEvent = Static<typeof ClientServicemlActionEvent>;

export * from './eventExtensions.js';

/** Every event, told apart by `name`. */
export const AnyEvent = Type.Union([
  AppInstallEvent,
  AppUninstallEvent,
  ChatReceiveMessageEvent,
  ChatGenerateUrlPreviewEvent,
  ClientPressButtonEvent,
  ClientSlashCommandEvent,
  ClientMessageActionEvent,
  ClientOpenAttachmentWidgetEvent,
  ClientWidgetActionEvent,
  ClientServicemlActionEvent,
  ChatMessageUpdatedEvent,
  ChatMessageDeletedEvent,
  ChatReactionAddedEvent,
  ChatReactionRemovedEvent,
  ChannelMemberJoinedEvent,
  ChannelMemberLeftEvent,
  ChannelCreatedEvent,
]);
export type AnyEvent = Static<typeof AnyEvent>;
/** The SDK's name for `AnyEvent`. */
export type AviaryEvent = AnyEvent;

export type EventName = AnyEvent['name'];
export type EventOf<N extends EventName> = Extract<AnyEvent, { name: N }>;

/** The events of a person's action in the client: they carry the common attributes. */
export type ClientEventName = Extract<EventName, `client.${string}`>;
export type ClientEvent = EventOf<ClientEventName>;

/**
 * Each event's schema by its name. The compiler insists on every name of the union, and only those,
 * and on each schema being the one of its name.
 */
export const eventSchemas = {
  'app.install': AppInstallEvent,
  'app.uninstall': AppUninstallEvent,
  'chat.receiveMessage': ChatReceiveMessageEvent,
  'chat.generateUrlPreview': ChatGenerateUrlPreviewEvent,
  'client.pressButton': ClientPressButtonEvent,
  'client.slashCommand': ClientSlashCommandEvent,
  'client.messageAction': ClientMessageActionEvent,
  'client.openAttachmentWidget': ClientOpenAttachmentWidgetEvent,
  'client.widgetAction': ClientWidgetActionEvent,
  'client.servicemlAction': ClientServicemlActionEvent,
  'chat.messageUpdated': ChatMessageUpdatedEvent,
  'chat.messageDeleted': ChatMessageDeletedEvent,
  'chat.reactionAdded': ChatReactionAddedEvent,
  'chat.reactionRemoved': ChatReactionRemovedEvent,
  'channel.memberJoined': ChannelMemberJoinedEvent,
  'channel.memberLeft': ChannelMemberLeftEvent,
  'channel.created': ChannelCreatedEvent,
} as const satisfies { [N in EventName]: TSchema & { static: { name: N } } };

export const eventNames = Object.keys(eventSchemas) as readonly EventName[];

/** The events that may be delivered to a widget or browser URL instead of the listener (docs/reference/widgets.md). */
export const widgetEventNames = [
  'client.pressButton',
  'client.slashCommand',
  'client.openAttachmentWidget',
  'client.widgetAction',
  'client.servicemlAction',
] as const satisfies readonly EventName[];
export type WidgetEventName = (typeof widgetEventNames)[number];
export type WidgetEvent = EventOf<WidgetEventName>;

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(eventSchemas, value);
}

export function isWidgetEventName(value: unknown): value is WidgetEventName {
  return typeof value === 'string' && (widgetEventNames as readonly string[]).includes(value);
}

export const isWidgetEvent = (event: AnyEvent): event is WidgetEvent => isWidgetEventName(event.name);

/** The longest toast text an app may answer to a synchronous `client.*` event. */
export const maxToastLength = 100;

/**
 * Where an event token may be used: the body of a delivery to the listener, or the `serviceEvent` of a
 * widget URL or of a browser URL. A token for one route is refused on the others.
 */
export const eventTokenRoutes = ['listener', 'widget', 'browser'] as const;
export type EventTokenRoute = (typeof eventTokenRoutes)[number];

/**
 * Claims of the event token (a JWS, HS256, keyed with the app secret as UTF-8). `route` and `sha256`
 * were added to the original five; a verifier that knows only those still accepts the token.
 */
export interface EventTokenClaims {
  appId: string;
  userId: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  /** The event's id: the same on every retry of one event. */
  jti: string;
  /** Which route the token is for. Absent only from tokens of servers older than these claims. */
  route?: EventTokenRoute;
  /**
   * The SHA-256, base64url without padding, of the exact bytes the token vouches for: the request body
   * of a listener delivery, or the `serviceEvent` parameter's value (UTF-8) of a widget or browser URL.
   */
  sha256?: string;
}

export const eventTokenAlgorithm = 'HS256';

/** Listener tokens are signed afresh at each attempt; widget and browser URLs live longer. */
export const eventTokenLifetimeSeconds = { listener: 10 * 60, widget: 24 * 60 * 60 } as const;

/** Headers of a delivery to the event listener (docs/reference/events.md). */
export const eventHeaders = {
  token: 'X-Service-Event-Token',
  /** During a secret rotation's grace period: the same token signed with the previous secret. */
  previousToken: 'X-Service-Event-Token-Previous',
  eventId: 'X-Service-Event-Id',
  retryNum: 'X-Service-Retry-Num',
  retryReason: 'X-Service-Retry-Reason',
  /** Sent back by the app: `1` asks the service not to retry a failed event. */
  noRetry: 'X-Service-No-Retry',
} as const;

export const retryReasons = ['timeout', 'connection_failed', 'http_error', 'rate_limited'] as const;
export type RetryReason = (typeof retryReasons)[number];

/** Query parameters appended to a widget or browser URL (docs/reference/widgets.md). */
export const widgetParams = {
  event: 'serviceEvent',
  token: 'serviceEventToken',
  client: 'serviceClient',
  widgetType: 'serviceWidgetType',
} as const;

export const serviceClients = ['desktop', 'ios', 'android'] as const;
export type ServiceClient = (typeof serviceClients)[number];

export const serviceWidgetTypes = ['modal', 'sidebar', 'attachment'] as const;
export type ServiceWidgetType = (typeof serviceWidgetTypes)[number];
