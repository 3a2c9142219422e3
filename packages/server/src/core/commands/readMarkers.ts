import { isUserId, type ChatReadState } from '@aviary/protocol';
import type { CommandContext } from '../context.js';
import { invalidParameter } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
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
    const chatKey = await resolveReadableChat(tx, person, chat);
    const [message] = await findMessagesByUids(tx, chatKey, person.id, [uid]);
    if (!message) throw invalidParameter('uid', `uid ${uid} is not a message of ${chat} that you can see.`);
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
    const state: ChatReadState = { chat: isUserId(chat) ? chat : chatKey, readUpTo, ...(await unreadCounts(tx, chatKey, person.id, readUpTo)) };
    if (readUpTo === uid) await recordStreamEntries(tx, effects, person.team_id, [chatRead(person.id, state)], now);
    return state;
  });
}

async function currentMarker(tx: ChangeContext['db'], userId: string, chatKey: string): Promise<string> {
  const row = await tx.selectFrom('chat_reads').select('read_uid').where('user_id', '=', userId).where('chat_key', '=', chatKey).executeTakeFirstOrThrow();
  return row.read_uid;
}
