import { reactionLimits, type MessageReactionModel } from '@aviary/protocol';
import { sql } from 'kysely';
import type { Db } from '../../store/store.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';

/**
 * The reactions of some messages as `readerId` sees them: per message, each emoji (the oldest first) with
 * its count, whether the reader reacted, and the first reactors (the reader first when they did). One
 * statement however many messages: window functions (both dialects have them) count each emoji and rank
 * its reactors, and only the first few of each come back, so a message with a thousand reactions sends
 * ten names.
 */
export async function reactionsOf(db: Db, uids: readonly string[], readerId: string): Promise<Map<string, MessageReactionModel[]>> {
  const byMessage = new Map<string, MessageReactionModel[]>();
  if (uids.length === 0) return byMessage;
  const each = sql`partition by message_uid, emoji`;
  const ranked = db
    .selectFrom('reactions')
    .select([
      'message_uid',
      'emoji',
      'user_id',
      sql<number>`row_number() over (${each} order by case when user_id = ${readerId} then 0 else 1 end, created_at, user_id)`.as('rank'),
      sql<number>`count(*) over (${each})`.as('count'),
      sql<number>`min(created_at) over (${each})`.as('first_at'),
      sql<number>`max(case when user_id = ${readerId} then 1 else 0 end) over (${each})`.as('me'),
    ])
    .where('message_uid', 'in', [...uids])
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    .select(['message_uid', 'emoji', 'user_id', 'count', 'me'])
    .where('rank', '<=', reactionLimits.maxUserIdsShown)
    .orderBy('first_at')
    .orderBy('emoji')
    .orderBy('message_uid')
    .orderBy('rank')
    .execute();
  let current: MessageReactionModel | undefined;
  let currentUid: string | undefined;
  for (const row of rows) {
    if (current === undefined || currentUid !== row.message_uid || current.emoji !== row.emoji) {
      current = { emoji: row.emoji, count: Number(row.count), userIds: [], me: Number(row.me) === 1 };
      currentUid = row.message_uid;
      const list = byMessage.get(row.message_uid);
      if (list) list.push(current);
      else byMessage.set(row.message_uid, [current]);
    }
    current.userIds.push(row.user_id);
  }
  return byMessage;
}

export interface MessageReactions {
  messageUid: string;
  reactions: MessageReactionModel[];
}

/**
 * A message the person or bot can see (the rules of chat.fetchMessages); a bot also sees the channel
 * messages it sent itself. Anything else is the same "no such message" as elsewhere.
 */
export async function findReactableMessage(db: Db, user: UsersTable, uid: string): Promise<MessagesTable> {
  const row = await db.selectFrom('messages').selectAll().where('uid', '=', uid).where('team_id', '=', user.team_id).executeTakeFirst();
  if (!row) throw noSuchMessage(uid);
  if (row.from_user_id !== user.id || user.bot_app_id === null) await findVisibleMessage(db, user, uid);
  return row;
}

/** reactions.list: a message's reactions, as the caller sees them. */
export async function listReactions(db: Db, reader: UsersTable, messageUid: string): Promise<MessageReactions> {
  await findReactableMessage(db, reader, messageUid);
  const reactions = (await reactionsOf(db, [messageUid], reader.id)).get(messageUid) ?? [];
  return { messageUid, reactions };
}
