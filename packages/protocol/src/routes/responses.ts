/**
 * Deferred replies (an Aviary extension, docs/reference/events.md "Replying later: responseUrl"): the
 * `responseUrl` of a `client.*` event is this route with the event's token in its path. The token is the
 * credential: the app POSTs to it with no other.
 */
import { Type } from '@sinclair/typebox';
import { MessageUid } from '../ids.js';
import { AttachmentInput } from '../models.js';
import { closedObject, NonEmptyString, oneOf } from '../params.js';
import { defineRoute } from './define.js';

/** Where a reply goes: to the person alone (the default), or to everyone in the chat. */
export const responseTypes = ['ephemeral', 'inChat'] as const;
export type ResponseType = (typeof responseTypes)[number];

export const respond = defineRoute({
  name: 'responses.respond',
  summary:
    'A deferred reply to a client.* event, through its responseUrl: a message visible to the person only (the default), one to the chat, ' +
    'or the replacement of the app’s message that carried the button. Up to 5 replies within 30 minutes of the event.',
  verb: 'POST',
  path: '/api/respond/:token',
  params: Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 200, description: 'the last segment of the responseUrl' }),
      text: NonEmptyString(40_000, 'the message text, also its plain-text form for notifications and search'),
      serviceml: Type.Optional(Type.String({ description: 'a ServiceML document (<serviceml>…</serviceml>)' })),
      attachments: Type.Optional(Type.Array(AttachmentInput, { description: 'at most one Attachment' })),
      responseType: Type.Optional(oneOf(responseTypes, 'ephemeral (the default: only the person who acted sees it) or inChat (everyone in the chat)')),
      replaceOriginal: Type.Optional(Type.Boolean({ description: 'replace the app’s message whose button or <action> the person used, instead of sending a new one' })),
    },
    { additionalProperties: false },
  ),
  result: closedObject({
    uid: MessageUid,
    repliesLeft: Type.Integer({ minimum: 0, description: 'how many more replies the URL takes' }),
  }),
  errors: ['UnknownResponseUrl', 'ResponseUrlExpired', 'ResponseUrlUsedUp', 'UnknownRecipient', 'NotInstalled', 'AppDisabled', 'BotNotEnabled', 'PermissionDenied'],
});
