import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { MessageUid } from '../ids.js';
import { Message } from '../models.js';
import { closedObject } from '../params.js';
import { threadLimits } from '../threads.js';

/** A person's state of one thread: whether they follow it, how far they read it. */
export const ThreadFollowState = closedObject({
  messageUid: MessageUid,
  following: Type.Boolean(),
  readUpTo: Type.Optional(MessageUid),
});

const FollowedThread = closedObject({
  message: Message,
  following: Type.Boolean(),
  readUpTo: Type.Optional(MessageUid),
  unread: Type.Boolean({ description: 'a reply newer than readUpTo (the person’s own replies mark the thread read)' }),
});
const ThreadsCursor = Type.String({ pattern: '^[0-9]{1,15}:[0-9A-HJKMNP-TV-Z]{26}$', description: 'nextCursor of the previous page' });

export const list = defineMethod({
  name: 'threads.list',
  summary:
    'The threads the person follows, the most recent reply first, each parent with its thread summary and whether a reply is ' +
    'unread; keyset pages (pass nextCursor as `cursor`). Threads of chats the person no longer reads are left out.',
  callers: ['session'],
  rateClass: 'read',
  params: closedObject({
    cursor: Type.Optional(ThreadsCursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: threadLimits.maxListPage, description: `page size, 1 to ${threadLimits.maxListPage} (default 30)` })),
  }),
  result: closedObject({ threads: Type.Array(FollowedThread), nextCursor: Type.Optional(ThreadsCursor) }),
});

export const follow = defineMethod({
  name: 'threads.follow',
  summary: 'Follow the thread of a message the person can see (a reply names its root’s thread); their streams get thread.followUpdated.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ messageUid: MessageUid }),
  result: ThreadFollowState,
});

export const unfollow = defineMethod({
  name: 'threads.unfollow',
  summary: 'Stop following a thread: it leaves threads.list until the person replies or is mentioned in it again.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ messageUid: MessageUid }),
  result: ThreadFollowState,
});

export const markRead = defineMethod({
  name: 'threads.markRead',
  summary: 'The person has read a thread up to its newest reply (or up to `uid`, one of its replies); markers only move forward.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({ messageUid: MessageUid, uid: Type.Optional(MessageUid) }),
  result: ThreadFollowState,
});
