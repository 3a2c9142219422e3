import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { MessageUid } from '../ids.js';
import { closedObject } from '../params.js';
import { Emoji, MessageReaction, reactionLimits } from '../reactions.js';

/** A message's reactions after the change (or as they are), as the caller sees them. */
const answer = closedObject({ messageUid: MessageUid, reactions: Type.Array(MessageReaction) });
const reacting = closedObject({ messageUid: MessageUid, emoji: Emoji });

export const add = defineMethod({
  name: 'reactions.add',
  summary:
    `React to a message the caller can see with one native emoji (at most ${reactionLimits.maxDistinctEmoji} different ones per message); ` +
    'reacting again with the same emoji changes nothing. Readers’ streams get reaction.added.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: reacting,
  result: answer,
});

export const remove = defineMethod({
  name: 'reactions.remove',
  summary: 'Take back one’s reaction to a message; one that was not there changes nothing. Readers’ streams get reaction.removed.',
  callers: ['token', 'session'],
  rateClass: 'message',
  params: reacting,
  result: answer,
});

export const list = defineMethod({
  name: 'reactions.list',
  summary: `A message’s reactions: each emoji with its count, whether the caller reacted, and the first ${reactionLimits.maxUserIdsShown} who did.`,
  callers: ['token', 'session'],
  rateClass: 'read',
  params: closedObject({ messageUid: MessageUid }),
  result: answer,
});
