import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { ChatId, MessageUid } from '../ids.js';
import { Message } from '../models.js';
import { closedObject } from '../params.js';
import { PinInfo, pinLimits } from '../pinned.js';

const Pin = closedObject({ message: Message, pinned: PinInfo });
const SavedItem = closedObject({ message: Message, savedAt: Type.Integer({ description: 'when the person saved it, milliseconds since the epoch' }) });
const SavedCursor = Type.String({ pattern: '^[0-9]{1,15}:[0-9A-HJKMNP-TV-Z]{26}$', description: 'nextCursor of the previous page' });

export const add = defineMethod({
  name: 'pins.add',
  summary:
    `Pin a message the caller can see to its chat (a channel the caller is a member of, or their direct chat), at most ${pinLimits.maxPinsPerChat} pins per chat; ` +
    'pinning a pinned message changes nothing. Readers’ streams get pin.added.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ messageUid: MessageUid, pinned: PinInfo }),
});

export const remove = defineMethod({
  name: 'pins.remove',
  summary: 'Unpin a message from its chat (anyone who may pin may unpin); one that was not pinned changes nothing. Readers’ streams get pin.removed.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ messageUid: MessageUid }),
});

export const list = defineMethod({
  name: 'pins.list',
  summary: 'The messages pinned to a chat that the caller can see, the most recently pinned first, each with who pinned it and when.',
  callers: ['token', 'session'],
  rateClass: 'read',
  params: closedObject({ chat: ChatId }),
  result: closedObject({ pins: Type.Array(Pin) }),
  errors: ['UnknownChat'],
});

export const saveAdd = defineMethod({
  name: 'saved.add',
  summary: 'Save a message the person can see to their own saved items (private: nobody else learns of it); saving it again changes nothing.',
  callers: ['session'],
  rateClass: 'message',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ messageUid: MessageUid, savedAt: Type.Integer() }),
});

export const saveRemove = defineMethod({
  name: 'saved.remove',
  summary: 'Remove a message from the person’s saved items; one that was not saved changes nothing.',
  callers: ['session'],
  rateClass: 'message',
  params: closedObject({ messageUid: MessageUid }),
  result: closedObject({ messageUid: MessageUid }),
});

export const saveList = defineMethod({
  name: 'saved.list',
  summary:
    'The person’s saved items, the most recently saved first, by keyset pages: pass nextCursor as `cursor` for the next page. ' +
    'Messages the person can no longer see (they left the channel) are left out.',
  callers: ['session'],
  rateClass: 'read',
  params: closedObject({
    cursor: Type.Optional(SavedCursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: pinLimits.maxSavedPage, description: `page size, 1 to ${pinLimits.maxSavedPage} (default 50)` })),
  }),
  result: closedObject({ items: Type.Array(SavedItem), nextCursor: Type.Optional(SavedCursor) }),
});
