import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { closedObject } from '../params.js';

export const createTicket = defineMethod({
  name: 'stream.createTicket',
  summary:
    'A single-use ticket that opens the real-time stream as the person (GET /api/stream?ticket=), for clients that cannot ' +
    'send the session with the WebSocket request; it expires after a minute and ends with the session.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({}),
  result: closedObject({ ticket: Type.String({ description: 'st_… ; pass it as ?ticket=' }), expiresAt: Type.Integer({ description: 'milliseconds since the epoch' }) }),
});
