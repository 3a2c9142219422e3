import { compiledOnce } from '../compiledOnce.js';
import type { MessagesTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

/**
 * The one writer of message rows: a sent message, the system bot's notices and the demo's history all
 * go through here, so a new column is filled in one place.
 */

/** A direct chat is keyed by its two user ids, sorted, so both sides find the same history. */
export const directChatKey = (a: string, b: string): string => [a, b].sort().join('|');

/** Where a message was sent and what it says; everything else a plain message leaves empty. */
export type MessageFields = Pick<MessagesTable, 'uid' | 'chat_key' | 'team_id' | 'from_user_id' | 'to_id' | 'timestamp' | 'text'> &
  Partial<MessagesTable>;

export function messageRow(fields: MessageFields): MessagesTable {
  return {
    client_id: null, serviceml: null, notification: null, mentions: null, send_as: null, app_id: null, attachments: null, visible_to: null,
    ...fields,
  };
}

/** Rows per INSERT when many are written at once: well below either dialect's limit on parameters. */
const insertBatch = 100;

// One message is the hot path (every chat.sendMessage): compiled once per store.
const insertOne = compiledOnce((db, message: MessagesTable) => db.insertInto('messages').values(message));

export async function insertMessages(db: Db | Tx, messages: MessagesTable[]): Promise<void> {
  if (messages.length === 1) {
    await insertOne(db, messages[0]);
    return;
  }
  for (let start = 0; start < messages.length; start += insertBatch) {
    await db.insertInto('messages').values(messages.slice(start, start + insertBatch)).execute();
  }
}
