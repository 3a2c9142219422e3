import type { MessageModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findVisibleMessage, noSuchMessage } from '../interactions/visibleMessage.js';
import { presentMessage } from '../presenters/messages.js';

/**
 * saved.add, saved.remove and saved.list: a person's own saved messages, private to them (no frame, no
 * event). Only a message they can see is saved; one they can no longer see (they left its channel)
 * stays saved but is left out of the list until they can see it again.
 */
export async function saveMessage(db: Db, person: UsersTable, messageUid: string, now: number): Promise<number> {
  const { row } = await findVisibleMessage(db, person, messageUid);
  await db
    .insertInto('saved_items')
    .values({ user_id: person.id, message_uid: row.uid, team_id: row.team_id, saved_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'message_uid']).doNothing())
    .execute();
  const saved = await db.selectFrom('saved_items').select('saved_at').where('user_id', '=', person.id).where('message_uid', '=', row.uid).executeTakeFirstOrThrow();
  return Number(saved.saved_at);
}

export async function unsaveMessage(db: Db, person: UsersTable, messageUid: string): Promise<void> {
  const deleted = await db.deleteFrom('saved_items').where('user_id', '=', person.id).where('message_uid', '=', messageUid).executeTakeFirst();
  // Unsaving what was never saved: fine when the message is visible, "no such message" otherwise.
  if (Number(deleted.numDeletedRows) === 0) await findVisibleMessage(db, person, messageUid).catch(() => { throw noSuchMessage(messageUid); });
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
  const items: SavedPage['items'] = [];
  for (const row of shown) {
    const visible = await findVisibleMessage(db, person, row.message_uid).catch(() => undefined);
    if (visible) items.push({ message: presentMessage(visible.row), savedAt: Number(row.saved_at) });
  }
  const last = shown.at(-1);
  return more && last ? { items, nextCursor: `${Number(last.saved_at)}:${last.message_uid}` } : { items };
}
