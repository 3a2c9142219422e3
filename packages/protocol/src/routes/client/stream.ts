import { Type } from '@sinclair/typebox';
import { ChatId } from '../../ids.js';
import { defineRoute } from '../define.js';
import { closedObject } from '../fields.js';

export const createStreamTicket = defineRoute({
  name: 'client.createStreamTicket',
  summary:
    'A single-use ticket that opens the real-time stream as the person (GET /api/stream?ticket=), for clients that cannot ' +
    'send the session with the WebSocket request; it expires after a minute and ends with the session.',
  verb: 'POST',
  path: '/api/client/stream/ticket',
  callers: ['session'],
  params: closedObject({}),
  result: closedObject({ ticket: Type.String({ description: 'st_… ; pass it as ?ticket=' }), expiresAt: Type.Integer({ description: 'milliseconds since the epoch' }) }),
  errors: [],
});

export const signalTyping = defineRoute({
  name: 'client.signalTyping',
  summary:
    'The person is typing in a chat they read: the other readers with a stream open get a typing frame (not kept, never ' +
    'replayed). Send it at most every 3 seconds while typing.',
  verb: 'POST',
  path: '/api/client/typing',
  callers: ['session'],
  rateClass: 'message',
  params: closedObject({ chat: ChatId }),
  result: closedObject({}),
  errors: ['UnknownChat'],
});
