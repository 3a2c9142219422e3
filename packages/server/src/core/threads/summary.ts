import type { ThreadSummaryModel } from '@aviary/protocol';
import type { ThreadsTable } from '../../store/schema.js';

/** A thread row as the API shows it under its parent. */
export const presentThread = (row: Pick<ThreadsTable, 'reply_count' | 'participants' | 'last_reply_uid' | 'last_reply_at'>): ThreadSummaryModel => ({
  replyCount: Number(row.reply_count),
  participants: JSON.parse(row.participants) as string[],
  lastReplyUid: row.last_reply_uid,
  lastReplyAt: Number(row.last_reply_at),
});
