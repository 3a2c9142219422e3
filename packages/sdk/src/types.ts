/**
 * The protocol's shapes as an app sees them: every id branded (a `ChannelId` does not pass for a
 * `UserId`), events and attachments typed from the protocol's schemas. The protocol keeps plain strings
 * for the server; `Static<T, [BrandedIds]>` turns its id schemas into these brands.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type {
  AnyEvent,
  Attachment as AttachmentSchema,
  BrandedIds,
  EventName,
  eventAnswerSchemas,
  EventTokenClaims as PlainEventTokenClaims,
  Message as MessageSchema,
  WidgetEventName,
  AppId,
  UserId,
} from '@aviary/protocol';

export type {
  AppId,
  ChannelId,
  ChatId,
  ClientEventName,
  ErrorBody,
  ErrorCode,
  EventName,
  EventTokenRoute,
  MessageUid,
  ServiceClient,
  ServiceWidgetType,
  ToastAnswer,
  UserId,
  WidgetEventName,
} from '@aviary/protocol';

/** A schema's static type with branded ids. */
export type Branded<T extends TSchema> = Static<T, [BrandedIds]>;

/** Every event the service sends, told apart by `name`. */
export type AviaryEvent = Branded<typeof AnyEvent>;
export type EventOf<N extends EventName> = Extract<AviaryEvent, { name: N }>;
export type WidgetEvent = EventOf<WidgetEventName>;
export type Attachment = Branded<typeof AttachmentSchema>;
export type Message = Branded<typeof MessageSchema>;

/** The event token's claims, with the app and the person as branded ids. */
export interface EventTokenClaims extends Omit<PlainEventTokenClaims, 'appId' | 'userId'> {
  appId: AppId;
  userId: UserId;
}

/** The events whose listener answer the service reads (the protocol's `eventAnswerSchemas`); it ignores the others'. */
export type AnsweredEventName = keyof typeof eventAnswerSchemas;
/** The answer the service reads for an event: a toast `{text}` for `client.*`, the attachment of a URL preview. */
export type AnswerBodyOf<N extends AnsweredEventName> = Branded<(typeof eventAnswerSchemas)[N]>;
