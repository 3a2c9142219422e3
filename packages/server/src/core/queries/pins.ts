import { pinLimits, type MessageModel, type PinInfoModel } from '@aviary/protocol';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { resolveReadableChat } from '../policies/chat.js';
import { presentMessage } from '../presenters/messages.js';
import { findMessagesByUids } from './messages.js';

/** pins.list: the chat's pins whose messages the reader can see, the most recently pinned first. */
export async function listPins(db: Db, reader: UsersTable, chat: string): Promise<{ message: MessageModel; pinned: PinInfoModel }[]> {
  const chatKey = await resolveReadableChat(db, reader, chat);
  const pins = await db.selectFrom('pins').selectAll().where('chat_key', '=', chatKey).orderBy('pinned_at', 'desc').orderBy('message_uid', 'desc').limit(pinLimits.maxPinsPerChat).execute();
  const rows = await findMessagesByUids(db, chatKey, reader.id, pins.map((pin) => pin.message_uid));
  const byUid = new Map(rows.map((row) => [row.uid, row]));
  return pins.flatMap((pin) => {
    const row = byUid.get(pin.message_uid);
    return row ? [{ message: presentMessage(row), pinned: { by: pin.pinned_by, at: Number(pin.pinned_at) } }] : [];
  });
}
