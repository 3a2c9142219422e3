import type { MessageModel } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { resolveReadableChat } from '../policies/chat.js';
import { presentMessage } from '../presenters/messages.js';
import { findMessagesByUids } from './messages.js';

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
