import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { FileId } from '../files.js';
import { AppId, ChatId, MessageUid } from '../ids.js';
import { closedObject, oneOf } from '../params.js';
import { sendMessage } from './chat.js';

/** Scheduled messages, an Aviary extension (docs/reference/methods.md "chat.scheduleMessage"). */
export const ScheduledMessageId = Type.String({ pattern: '^sm_[0-9A-HJKMNP-TV-Z]{26}$', description: 'a scheduled message id (sm_ and a ULID)' });

/** How far ahead a message may be scheduled: 120 days. */
export const MAX_SCHEDULE_AHEAD_MS = 120 * 24 * 60 * 60 * 1000;

const sendAt = Type.Integer({ description: 'when to send it, milliseconds since the epoch: in the future, at most 120 days ahead' });

export const ScheduledMessage = closedObject({
  id: ScheduledMessageId,
  to: ChatId,
  text: Type.String(),
  files: Type.Optional(Type.Array(FileId, { description: 'the files it will carry, held for it until it is sent, cancelled or refused' })),
  sendAt: Type.Integer({ description: 'milliseconds since the epoch' }),
  status: oneOf(['pending', 'sent', 'failed'] as const, 'pending until sent; failed when the send was refused then (see error)'),
  appId: Type.Optional(AppId('the app whose token scheduled it')),
  messageUid: Type.Optional(MessageUid),
  error: Type.Optional(closedObject({ code: Type.String(), description: Type.String() })),
  createdAt: Type.Integer({ description: 'milliseconds since the epoch' }),
});

export const scheduleMessage = defineMethod({
  name: 'chat.scheduleMessage',
  summary:
    'An Aviary extension: chat.sendMessage’s params and `sendAt`; the server sends the message then, exactly once, with the ' +
    'checks of chat.sendMessage applied at that time (a refused send is marked failed).',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: Type.Object({ ...sendMessage.params.properties, sendAt }),
  sessionParams: closedObject({ ...sendMessage.sessionParams!.properties, sendAt }),
  result: closedObject({ scheduledMessage: ScheduledMessage }),
  errors: ['UnknownRecipient'],
});

export const listScheduledMessages = defineMethod({
  name: 'chat.listScheduledMessages',
  summary:
    'An Aviary extension: the caller’s scheduled messages not yet sent and those whose send failed (with a token: those of its app), ' +
    'soonest first, optionally of one chat.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: Type.Object({ to: Type.Optional(ChatId) }),
  result: closedObject({ scheduledMessages: Type.Array(ScheduledMessage) }),
});

export const deleteScheduledMessage = defineMethod({
  name: 'chat.deleteScheduledMessage',
  summary: 'An Aviary extension: cancel one of the caller’s scheduled messages not yet sent, or clear a failed one from the list.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: Type.Object({ id: ScheduledMessageId }),
  result: closedObject({}),
});
