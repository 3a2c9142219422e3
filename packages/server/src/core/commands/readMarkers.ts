import { isUserId, type ChatReadState } from '@aviary/protocol';
import type { CommandContext } from '../context.js';
import { invalidParameter } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import { runChange, type ChangeContext } from '../effects/effects.js';
import { resolveReadableChat } from '../policies/chat.js';
import { findMessagesByUids } from '../queries/messages.js';
import { unreadCounts } from '../queries/unread.js';
import { chatRead } from '../stream/entries.js';
import { recordStreamEntries } from '../stream/record.js';

/**
 * Marks `chat` read up to message `uid`, which must be a message of the chat the person can see. A marker
 * only moves forward: marking an older message read changes nothing. The person's other devices hear
 * the new counts on the stream (`chat.read`).
 */
export async function markChatRead(ctx: CommandContext, person: UsersTable, { chat, uid }: { chat: string; uid: string }): Promise<ChatReadState> {
  return runChange(ctx, async (tx, effects) => {
    const { chatKey } = await markedMessage(tx, person, chat, uid);
    const now = ctx.now();
    const moved = await tx
      .insertInto('chat_reads')
      .values({ user_id: person.id, chat_key: chatKey, read_uid: uid, updated_at: now })
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'chat_key'])
          .doUpdateSet((eb) => ({ read_uid: eb.ref('excluded.read_uid'), updated_at: eb.ref('excluded.updated_at') }))
          .where('chat_reads.read_uid', '<', uid),
      )
      .executeTakeFirst();
    const readUpTo = Number(moved.numInsertedOrUpdatedRows ?? 0n) > 0 ? uid : await currentMarker(tx, person.id, chatKey);
    const state = await readState(tx, person, chat, chatKey, readUpTo);
    if (readUpTo === uid) await recordStreamEntries(tx, effects, person.team_id, [chatRead(person.id, state)], now);
    return state;
  });
}

/**
 * chat.markUnread: the person has not read `chat` from message `uid` on (a message of the chat's history
 * they can see, not a reply kept in its thread). The marker goes back to just before it, whatever it was:
 * readUpTo becomes the uid just below `uid` (uidBefore), so the counts and the first unread message are
 * what they would be had the person read up to the message before it. Their other devices hear it on the
 * stream (`chat.read`); a device with the chat open keeps it so until the person leaves it.
 */
export async function markChatUnread(ctx: CommandContext, person: UsersTable, { chat, uid }: { chat: string; uid: string }): Promise<ChatReadState> {
  return runChange(ctx, async (tx, effects) => {
    const { chatKey, message } = await markedMessage(tx, person, chat, uid);
    if (message.thread_parent !== null && message.also_in_channel !== 1) {
      throw invalidParameter('uid', `uid ${uid} is a reply in a thread, which has read markers of its own (threads.markRead); name a message of the chat's history.`);
    }
    const now = ctx.now();
    const readUpTo = uidBefore(uid);
    await tx
      .insertInto('chat_reads')
      .values({ user_id: person.id, chat_key: chatKey, read_uid: readUpTo, updated_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'chat_key']).doUpdateSet({ read_uid: readUpTo, updated_at: now }))
      .execute();
    const state = await readState(tx, person, chat, chatKey, readUpTo);
    await recordStreamEntries(tx, effects, person.team_id, [chatRead(person.id, state)], now);
    return state;
  });
}

/** Crockford's base32, in which message uids are written (ids.ts): the order of its digits is the order of the characters. */
const UID_DIGITS = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The uid just below `uid` in the order uids sort in: what a marker "up to the message before" holds
 * without naming one. The lowest uid has none below it, and is its own.
 */
export function uidBefore(uid: string): string {
  const digits = [...uid];
  for (let at = digits.length - 1; at >= 0; at--) {
    const value = UID_DIGITS.indexOf(digits[at]!);
    if (value > 0) {
      digits[at] = UID_DIGITS[value - 1]!;
      return digits.join('');
    }
    digits[at] = UID_DIGITS.at(-1)!;
  }
  return uid;
}

/** The chat a marker is set in (its key) and the message it names, which the person must be able to see there. */
async function markedMessage(tx: ChangeContext['db'], person: UsersTable, chat: string, uid: string): Promise<{ chatKey: string; message: MessagesTable }> {
  const chatKey = await resolveReadableChat(tx, person, chat);
  const [message] = await findMessagesByUids(tx, chatKey, person.id, [uid]);
  if (!message) throw invalidParameter('uid', `uid ${uid} is not a message of ${chat} that you can see.`);
  return { chatKey, message };
}

/** Where the marker stands and what is left after it, as both methods answer it and `chat.read` says it. */
async function readState(tx: ChangeContext['db'], person: UsersTable, chat: string, chatKey: string, readUpTo: string): Promise<ChatReadState> {
  return { chat: isUserId(chat) ? chat : chatKey, readUpTo, ...(await unreadCounts(tx, chatKey, person.id, readUpTo)) };
}

async function currentMarker(tx: ChangeContext['db'], userId: string, chatKey: string): Promise<string> {
  const row = await tx.selectFrom('chat_reads').select('read_uid').where('user_id', '=', userId).where('chat_key', '=', chatKey).executeTakeFirstOrThrow();
  return row.read_uid;
}
