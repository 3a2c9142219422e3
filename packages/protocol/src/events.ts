/**
 * Events the service sends to apps (docs/reference/events.md): the ten event shapes, the event token's claims,
 * the listener's HTTP headers and the widget URL's query parameters. The server's event engine builds
 * these; the SDK's listener and widget helpers read them.
 */
import type { MessageModel } from './models.js';

/** Attributes every `client.*` event carries besides its own. */
export interface ClientEventCommon {
  userId: string;
  userName: string;
  /** The chat the user acted in: a user id (direct chat) or a channel id. */
  chat: string;
  chatName: string;
}

export interface AppInstallEvent {
  name: 'app.install';
  userId: string;
  /** The user token; `userToken` carries the same value. */
  token: string;
  userToken: string;
}

export interface AppUninstallEvent {
  name: 'app.uninstall';
  userId: string;
}

export interface ChatReceiveMessageEvent {
  name: 'chat.receiveMessage';
  /** The sender. */
  userId: string;
  message: MessageModel;
}

export interface ChatGenerateUrlPreviewEvent {
  name: 'chat.generateUrlPreview';
  userId: string;
  url: string;
  chat: string;
  /** The same value as `chat`. */
  to: string;
  messageUid: string;
}

export const buttonKinds = ['appLauncherButton', 'chatTabButton', 'attachmentPickerButton', 'attachmentButton'] as const;
export type ButtonKind = (typeof buttonKinds)[number];

/** Only an attachment's buttons say which message, attachment and button were pressed. */
export type ClientPressButtonEvent = ClientEventCommon & { name: 'client.pressButton' } & (
    | { button: Exclude<ButtonKind, 'attachmentButton'> }
    | { button: 'attachmentButton'; messageUid: string; attachmentId: string; buttonId: string }
  );

export interface ClientSlashCommandEvent extends ClientEventCommon {
  name: 'client.slashCommand';
  /** The command's name, without the slash. */
  command: string;
  /** What follows the command. */
  text: string;
}

export interface ClientMessageActionEvent extends ClientEventCommon {
  name: 'client.messageAction';
  messageUids: string[];
  /** Omitted when more than `maxMessageActionMessages` messages are selected. */
  messages?: MessageModel[];
}

export interface ClientOpenAttachmentWidgetEvent extends ClientEventCommon {
  name: 'client.openAttachmentWidget';
  messageUid: string;
  attachmentId: string;
}

export interface ClientWidgetActionEvent extends ClientEventCommon {
  name: 'client.widgetAction';
  /** Present when the calling widget was opened from an attachment. */
  messageUid?: string;
  attachmentId?: string;
}

export interface ClientServicemlActionEvent extends ClientEventCommon {
  name: 'client.servicemlAction';
  messageUid: string;
  /** Absent when the `<action>` is in the message's own ServiceML rather than an attachment's. */
  attachmentId?: string;
  actionId: string;
}

export type AviaryEvent =
  | AppInstallEvent
  | AppUninstallEvent
  | ChatReceiveMessageEvent
  | ChatGenerateUrlPreviewEvent
  | ClientPressButtonEvent
  | ClientSlashCommandEvent
  | ClientMessageActionEvent
  | ClientOpenAttachmentWidgetEvent
  | ClientWidgetActionEvent
  | ClientServicemlActionEvent;

export type EventName = AviaryEvent['name'];
export type EventOf<N extends EventName> = Extract<AviaryEvent, { name: N }>;

// A record, not an array, so that the compiler insists on every name of the union, and only those.
const eventNameSet: Record<EventName, true> = {
  'app.install': true,
  'app.uninstall': true,
  'chat.receiveMessage': true,
  'chat.generateUrlPreview': true,
  'client.pressButton': true,
  'client.slashCommand': true,
  'client.messageAction': true,
  'client.openAttachmentWidget': true,
  'client.widgetAction': true,
  'client.servicemlAction': true,
};

export const eventNames = Object.keys(eventNameSet) as readonly EventName[];

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
  return typeof value === 'string' && Object.hasOwn(eventNameSet, value);
}

export function isWidgetEventName(value: unknown): value is WidgetEventName {
  return typeof value === 'string' && (widgetEventNames as readonly string[]).includes(value);
}

/** `client.messageAction` omits `messages` beyond this many selected messages. */
export const maxMessageActionMessages = 25;

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
