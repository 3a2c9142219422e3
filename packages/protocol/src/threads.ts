/**
 * Threads (docs/reference/methods.md, "Threads"): replies to a message, kept out of its chat's history
 * unless also sent to the channel; the parent carries their summary.
 */
import { Type, type Static } from '@sinclair/typebox';
import { MessageUid, UserId } from './ids.js';

export const threadLimits = {
  /** The recent participants a thread's summary names. */
  participantsShown: 5,
  /** Followed threads on one page of threads.list (default 30). */
  maxListPage: 100,
} as const;

/** What a parent message carries about its replies. */
export const ThreadSummary = Type.Object(
  {
    replyCount: Type.Integer({ minimum: 0 }),
    participants: Type.Array(UserId, { maxItems: threadLimits.participantsShown, description: 'the most recent repliers, newest first' }),
    lastReplyUid: MessageUid,
    lastReplyAt: Type.Integer({ description: 'when the newest reply was sent, milliseconds since the epoch' }),
  },
  { additionalProperties: false, description: 'the message has replies in a thread: how many, by whom, the newest' },
);
export type ThreadSummaryModel = Static<typeof ThreadSummary>;
