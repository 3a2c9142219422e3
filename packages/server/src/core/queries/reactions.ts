import { reactionLimits, type MessageReactionModel } from '@aviary/protocol';
import { sql } from 'kysely';
import type { Db } from '../../store/store.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';

/**
 * The reactions of some messages as `readerId` sees them: per message, each emoji (the oldest first) with
 * its count, whether the reader reacted, and the first reactors (the reader first when they did). Two
 * statements however many messages: the counts, and the first reactors of each emoji by a window function
 * (both dialects have them), so a message with a thousand reactions sends ten names.
 */
export async function reactionsOf(db: Db, uids: readonly string[], readerId: string): Promise<Map<string, MessageReactionModel[]>> {
  const byMessage = new Map<string, MessageReactionModel[]>();
  if (uids.length === 0) return byMessage;
  const counts = await db
    .selectFrom('reactions')
    .select((eb) => [
      'message_uid',
      'emoji',
      eb.fn.countAll().as('count'),
      eb.fn.min('created_at').as('first_at'),
      eb.fn.max(eb.case().when('user_id', '=', readerId).then(1).else(0).end()).as('me'),
    ])
    .where('message_uid', 'in', [...uids])
    .groupBy(['message_uid', 'emoji'])
    .orderBy('first_at')
    .orderBy('emoji')
    .execute();
  if (counts.length === 0) return byMessage;
  const shown = reactionLimits.maxUserIdsShown;
  const ranked = db
    .selectFrom('reactions')
    .select([
      'message_uid',
      'emoji',
      'user_id',
      sql<number>`row_number() over (partition by message_uid, emoji order by case when user_id = ${readerId} then 0 else 1 end, created_at, user_id)`.as('rank'),
    ])
    .where('message_uid', 'in', [...uids])
    .as('ranked');
  const reactors = await db.selectFrom(ranked).select(['message_uid', 'emoji', 'user_id']).where('rank', '<=', shown).orderBy('rank').execute();
  const key = (uid: string, emoji: string) => `${uid} ${emoji}`;
  const namesOf = new Map<string, string[]>();
  for (const { message_uid, emoji, user_id } of reactors) {
    const names = namesOf.get(key(message_uid, emoji)) ?? [];
    names.push(user_id);
    namesOf.set(key(message_uid, emoji), names);
  }
  for (const row of counts) {
    const list = byMessage.get(row.message_uid) ?? [];
    list.push({ emoji: row.emoji, count: Number(row.count), userIds: namesOf.get(key(row.message_uid, row.emoji)) ?? [], me: Number(row.me) === 1 });
    byMessage.set(row.message_uid, list);
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
