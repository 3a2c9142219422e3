import { compiledOnce } from '../compiledOnce.js';
import type { MessagesTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { lockChannelPosting, lockRows } from './locks.js';
import { isSqlite } from './streamEntries.js';

/**
 * The one writer of message rows: a sent message, the system bot's notices and the demo's history all
 * go through here, so a new column is filled in one place; and so do the two changes a message sees
 * afterwards, its sender's edit and a URL preview attached to it, and its deletion. The search index follows every insert,
 * edit of the text and delete by itself, in the same transaction: triggers on `messages` (migration 0015).
 */

/** A direct chat is keyed by its two user ids, sorted, so both sides find the same history. */
export const directChatKey = (a: string, b: string): string => [a, b].sort().join('|');

/** The other person of a direct chat's key (`me` for one's own notes to self). */
export const otherInDirectChat = (chatKey: string, me: string): string => chatKey.split('|').find((id) => id !== me) ?? me;

/** Where a message was sent and what it says; everything else a plain message leaves empty. */
export type MessageFields = Pick<MessagesTable, 'uid' | 'chat_key' | 'team_id' | 'from_user_id' | 'to_id' | 'timestamp' | 'text'> &
  Partial<MessagesTable>;

export function messageRow(fields: MessageFields): MessagesTable {
  return {
    client_id: null, serviceml: null, notification: null, mentions: null, send_as: null, app_id: null, attachments: null, visible_to: null, edited_at: null, webhook_id: null,
    thread_parent: null, also_in_channel: 0, deleted_at: null,
    ...fields,
  };
}

/** Rows per INSERT when many are written at once: well below either dialect's limit on parameters. */
const insertBatch = 100;

// One message is the hot path (every chat.sendMessage): compiled once per store.
const insertOne = compiledOnce((db, message: MessagesTable) => db.insertInto('messages').values(message));

export async function insertMessages(db: Db | Tx, given: MessagesTable[]): Promise<void> {
  // Every row names every column: insertOne is compiled from the first row written, and a batch takes one shape.
  const messages = given.map((message) => ({ ...message, files: message.files ?? null }));
  if (messages.length === 1) {
    await insertOne(db, messages[0]);
    return;
  }
  for (let start = 0; start < messages.length; start += insertBatch) {
    await db.insertInto('messages').values(messages.slice(start, start + insertBatch)).execute();
  }
}

/** What an edit replaces: the text with its ServiceML form, and the attachments unless it keeps them. */
export type MessageEdit = Pick<MessagesTable, 'text' | 'serviceml' | 'edited_at'> & Partial<Pick<MessagesTable, 'attachments'>>;

/**
 * Applies the sender's edit and returns the message as it now is; what it said before is kept in
 * `message_edits` (team admins read it with chat.listMessageEdits).
 */
export async function editMessage(tx: Tx, uid: string, edit: MessageEdit & { edited_by: string }): Promise<MessagesTable> {
  const { edited_by, ...change } = edit;
  await tx
    .insertInto('message_edits')
    .columns(['message_uid', 'edited_at', 'edited_by', 'previous_text', 'previous_serviceml'])
    .expression((eb) =>
      eb.selectFrom('messages').select((s) => ['uid', s.val(edit.edited_at).as('edited_at'), s.val(edited_by).as('edited_by'), 'text', 'serviceml']).where('uid', '=', uid),
    )
    .execute();
  return tx.updateTable('messages').set(change).where('uid', '=', uid).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes a message with what hangs on it (its reactions, its edits, its pin, its saves, its thread's summary and
 * followers), and returns it as it was; with keepRow, only what hangs on it. The
 * search index drops it by itself (the triggers of migration 0015).
 */
export async function deleteMessageRow(tx: Tx, uid: string, options: { keepRow?: boolean } = {}): Promise<MessagesTable | undefined> {
  await tx.deleteFrom('reactions').where('message_uid', '=', uid).execute();
  await tx.deleteFrom('pins').where('message_uid', '=', uid).execute();
  await tx.deleteFrom('saved_items').where('message_uid', '=', uid).execute();
  await tx.deleteFrom('message_edits').where('message_uid', '=', uid).execute();
  // A parent emptied for its thread (threads/deletion.ts) keeps its row, its thread and who follows it.
  if (options.keepRow) return undefined;
  await tx.deleteFrom('threads').where('parent_uid', '=', uid).execute();
  await tx.deleteFrom('thread_follows').where('parent_uid', '=', uid).execute();
  return tx.deleteFrom('messages').where('uid', '=', uid).returningAll().executeTakeFirst();
}

/**
 * A thread's parent deleted while it has replies: its row stays, emptied and marked deleted, so that its
 * thread is still read under it (core/threads/deletion.ts). Returns it as it now is.
 */
export async function emptyMessage(tx: Tx, uid: string, deletedAt: number): Promise<MessagesTable> {
  await deleteMessageRow(tx, uid, { keepRow: true });
  return tx
    .updateTable('messages')
    .set({ text: '', serviceml: null, notification: null, mentions: null, attachments: null, deleted_at: deletedAt })
    .where('uid', '=', uid)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Attaches a URL preview unless the message already carries an attachment (a message carries at most
 * one), and returns the message as it now is, or undefined when it was left as it was. The row comes back
 * from the update itself, so an edit made while the app was asked is not undone in what the stream shows.
 */
export async function attachPreview(tx: Tx, uid: string, attachments: string): Promise<MessagesTable | undefined> {
  return tx.updateTable('messages').set({ attachments }).where('uid', '=', uid).where('attachments', 'is', null).returningAll().executeTakeFirst();
}

/** What a message shows of its files (messages.files) once one of them is deleted (files.delete). */
export async function setMessageFiles(tx: Tx, uid: string, files: string | null): Promise<MessagesTable | undefined> {
  return tx.updateTable('messages').set({ files }).where('uid', '=', uid).returningAll().executeTakeFirst();
}

/** How a change holds a message's row while it runs (PostgreSQL): see lockMessages. */
export type MessageLock = 'delete' | 'edit' | 'attach';

/**
 * PostgreSQL: locks the messages' rows until the transaction ends, taken before the change reads them,
 * so that a deletion never meets another change of a message halfway (a reply, a reaction or an edit
 * written after the deletion had removed those of the message, and left behind it). `delete`
 * (chat.deleteMessage, retention) waits for the changes under way, then holds off those that come; `edit`
 * (an edit) and `attach` (what hangs on a message: a reply to it, a reaction, a pin, a save, a follow of
 * its thread) wait for a deletion under way and then find the message gone, or emptied. Edits and
 * attachments do not wait for each other. SQLite needs nothing: its one writer has changes take turns.
 */
export async function lockMessages(tx: Db | Tx, uids: readonly string[], lock: MessageLock): Promise<void> {
  await lockRows(tx, 'messages', 'uid', uids, lock === 'delete' ? 'update' : lock === 'edit' ? 'no key update' : 'key share');
}

/**
 * PostgreSQL: what a change of one message by its readers takes (an edit, a deletion, a reaction, a pin):
 * its channel's posting gate, shared, as a send holds it and before any message's row as a send takes
 * them (lockChannelPosting), then the message's row (lockMessages). So archiving the channel, which
 * holds the gate alone, waits for the changes under way, and a change that comes meanwhile waits, then
 * reads the channel archived. A direct chat has no gate.
 */
export async function lockMessageChange(tx: Db | Tx, uid: string, lock: MessageLock): Promise<void> {
  if (isSqlite(tx)) return;
  const row = await tx.selectFrom('messages').select('chat_key').where('uid', '=', uid).executeTakeFirst();
  if (row && !row.chat_key.includes('|')) await lockChannelPosting(tx, row.chat_key, 'post');
  await lockMessages(tx, [uid], lock);
}
