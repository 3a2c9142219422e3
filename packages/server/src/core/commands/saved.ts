import type { MessageModel } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findVisibleMessage } from '../interactions/visibleMessage.js';
import type { CommandContext } from '../context.js';
import { runChange } from '../effects/effects.js';
import { resolveReadableChat } from '../policies/chat.js';
import { presentMessage } from '../presenters/messages.js';
import { findMessagesByUids } from '../queries/messages.js';

/**
 * saved.add, saved.remove and saved.list: a person's own saved messages, private to them (no frame, no
 * event). Only a message they can see is saved; one they can no longer see (they left its channel)
 * stays saved but is left out of the list until they can see it again.
 */
export async function saveMessage(ctx: CommandContext, person: UsersTable, { messageUid }: { messageUid: string }): Promise<number> {
  const now = ctx.now();
  return runChange(ctx, async (tx) => {
    const { row } = await findVisibleMessage(tx, person, messageUid);
    await tx
      .insertInto('saved_items')
      .values({ user_id: person.id, message_uid: row.uid, team_id: row.team_id, saved_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'message_uid']).doNothing())
      .execute();
    const saved = await tx.selectFrom('saved_items').select('saved_at').where('user_id', '=', person.id).where('message_uid', '=', row.uid).executeTakeFirstOrThrow();
    return Number(saved.saved_at);
  });
}

export async function unsaveMessage(ctx: CommandContext, person: UsersTable, { messageUid }: { messageUid: string }): Promise<void> {
  await runChange(ctx, async (tx) => {
    const deleted = await tx.deleteFrom('saved_items').where('user_id', '=', person.id).where('message_uid', '=', messageUid).executeTakeFirst();
    // Unsaving what was never saved: fine when the message is visible, "no such message" otherwise.
    if (Number(deleted.numDeletedRows) === 0) await findVisibleMessage(tx, person, messageUid);
  });
}

export interface SavedPage {
  items: { message: MessageModel; savedAt: number }[];
  nextCursor?: string;
}

/** A keyset page on (saved_at, message_uid), newest first; the cursor is the last row's "savedAt:uid". */
export async function listSaved(db: Db, person: UsersTable, page: { cursor?: string; limit: number }): Promise<SavedPage> {
  let query = db.selectFrom('saved_items').select(['message_uid', 'saved_at']).where('user_id', '=', person.id);
  if (page.cursor !== undefined) {
    const [at, uid] = page.cursor.split(':');
    const savedAt = Number(at);
    query = query.where((eb) => eb.or([eb('saved_at', '<', savedAt), eb.and([eb('saved_at', '=', savedAt), eb('message_uid', '<', uid)])]));
  }
  const rows = await query.orderBy('saved_at', 'desc').orderBy('message_uid', 'desc').limit(page.limit + 1).execute();
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const visible = await visibleMessages(db, person, shown.map((row) => row.message_uid));
  const items = shown.flatMap((row) => {
    const message = visible.get(row.message_uid);
    return message ? [{ message: presentMessage(message), savedAt: Number(row.saved_at) }] : [];
  });
  const last = shown.at(-1);
  return more && last ? { items, nextCursor: `${Number(last.saved_at)}:${last.message_uid}` } : { items };
}

/**
 * Which of these messages the person can see now, by chat: a query for the messages, then per chat one
 * check that the person reads it (chat.fetchMessages' rule) and one for the messages not hidden from them.
 */
export async function visibleMessages(db: Db, person: UsersTable, uids: string[]): Promise<Map<string, MessagesTable>> {
  const visible = new Map<string, MessagesTable>();
  if (uids.length === 0) return visible;
  const rows = await db.selectFrom('messages').select(['uid', 'chat_key']).where('uid', 'in', uids).where('team_id', '=', person.team_id).execute();
  const byChat = new Map<string, string[]>();
  for (const row of rows) byChat.set(row.chat_key, [...(byChat.get(row.chat_key) ?? []), row.uid]);
  for (const [chatKey, chatUids] of byChat) {
    const named = chatKey.includes('|') ? chatKey.split('|').find((id) => id !== person.id) : chatKey;
    if (named === undefined || (chatKey.includes('|') && !chatKey.split('|').includes(person.id))) continue;
    const readable = await resolveReadableChat(db, person, named).then(
      (key) => key === chatKey,
      (error: unknown) => {
        if (error instanceof ApiError && error.code === 'UnknownChat') return false;
        throw error;
      },
    );
    if (!readable) continue;
    for (const message of await findMessagesByUids(db, chatKey, person.id, chatUids)) visible.set(message.uid, message);
  }
  return visible;
}
