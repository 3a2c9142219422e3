/**
 * What an app's listener may answer to a synchronous event. Any 2xx acknowledges an event; these
 * bodies are the only ones the service reads, and anything else in a 2xx body is ignored.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Attachment } from './attachment.js';
import type { EventName } from './events.js';

/** A short message the client shows to the person who acted; the service keeps its first 100 characters. */
export const ToastAnswer = Type.Object({ text: Type.String() }, { description: 'a toast shown to the person who acted' });
export type ToastAnswer = Static<typeof ToastAnswer>;

/**
 * The preview of a link: `{"attachment": Attachment}`, or the attachment unwrapped. `{}`, an empty body
 * or `{"attachment": null}` says there is no preview.
 */
export const UrlPreviewAnswer = Type.Union(
  [Type.Object({ attachment: Type.Union([Attachment, Type.Null()]) }), Attachment],
  { description: 'the attachment to add to the message, or {} for none' },
);
export type UrlPreviewAnswer = Static<typeof UrlPreviewAnswer>;

/** The answer bodies the service reads, by event; an event not listed here has its answer ignored. */
export const eventAnswerSchemas = {
  'chat.generateUrlPreview': UrlPreviewAnswer,
  'client.pressButton': ToastAnswer,
  'client.slashCommand': ToastAnswer,
  'client.messageAction': ToastAnswer,
  'client.servicemlAction': ToastAnswer,
} as const satisfies Partial<Record<EventName, TSchema>>;
