import { threadLimits } from '@aviary/protocol';
import type { MessagesTable } from '../../../store/schema.js';
import type { Tx } from '../../../store/store.js';

/**
 * Slack's threads in one conversation become Aviary's: a message whose `thread_ts` names an earlier
 * message of the conversation (Slack's day files are in time order) is a reply to it (`thread_broadcast`
 * also shows in the channel); one whose parent was not imported stays a message of its chat. Once the
 * conversation is written, each parent gets its summary and its followers (its author and the repliers),
 * who have read it: an import brings no unread threads.
 */
export class SlackThreads {
  readonly #uidByTs = new Map<string, string>();
  readonly #replies = new Map<string, MessagesTable[]>();
  readonly #parents = new Map<string, MessagesTable>();

  /** Makes `row` a reply when Slack says it is one and its parent is known; answers whether it did. */
  place(message: { ts: string; thread_ts?: string; subtype?: string }, row: MessagesTable): boolean {
    this.#uidByTs.set(message.ts, row.uid);
    if (message.thread_ts === undefined || message.thread_ts === message.ts) {
      this.#parents.set(row.uid, row);
      return false;
    }
    const parentUid = this.#uidByTs.get(message.thread_ts);
    const parent = parentUid === undefined ? undefined : this.#parents.get(parentUid);
    if (!parent) return false;
    row.thread_parent = parent.uid;
    row.also_in_channel = message.subtype === 'thread_broadcast' ? 1 : 0;
    this.#replies.set(parent.uid, [...(this.#replies.get(parent.uid) ?? []), row]);
    return true;
  }

  /** Writes the summaries and followers of the conversation's threads (after its messages). */
  async write(tx: Tx): Promise<void> {
    for (const [parentUid, replies] of this.#replies) {
      const parent = this.#parents.get(parentUid)!;
      const newest = replies.at(-1)!;
      const repliers = [...new Set(replies.map((reply) => reply.from_user_id).reverse())];
      await tx
        .insertInto('threads')
        .values({
          parent_uid: parentUid, chat_key: parent.chat_key, team_id: parent.team_id, reply_count: replies.length, last_reply_uid: newest.uid,
          last_reply_at: newest.timestamp, participants: JSON.stringify(repliers.slice(0, threadLimits.participantsShown)),
        })
        .execute();
      const followers = [...new Set([parent.from_user_id, ...repliers])];
      await tx
        .insertInto('thread_follows')
        .values(followers.map((userId) => ({ user_id: userId, parent_uid: parentUid, team_id: parent.team_id, following: 1, read_up_to: newest.uid })))
        .execute();
    }
  }
}
