import { ApiError, invalidParameter } from '../../errors.js';
import { lockMessages } from '../../store/rows/messages.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findVisibleMessage } from '../interactions/visibleMessage.js';
import { findMessagesByUids } from '../queries/messages.js';

/**
 * The root of the thread a new reply joins: the message named by `threadParent` when the sender can see
 * it (the rules of chat.fetchMessages), or that message's own parent when it is itself a reply. Refused,
 * naming `threadParent`: a message the sender cannot see (the same "no such message" as elsewhere), one
 * in another chat than `to`, a deleted one, and one shown to only some people (`visibleTo`), whose
 * replies would be seen by people who cannot see it.
 */
export async function resolveThreadRoot(db: Db, sender: UsersTable, chatKey: string, threadParent: string): Promise<MessagesTable> {
  let named: MessagesTable;
  try {
    named = (await findVisibleMessage(db, sender, threadParent)).row;
  } catch (error) {
    if (error instanceof ApiError && error.context.parameter === 'messageUid') {
      throw invalidParameter('threadParent', `There is no message ${threadParent} that you can see to reply to: it does not exist, or it is in a chat you cannot read.`);
    }
    throw error;
  }
  if (named.chat_key !== chatKey) {
    throw invalidParameter('threadParent', `Message ${threadParent} is in another chat than ${JSON.stringify(chatKey.includes('|') ? 'this direct chat' : chatKey)}; send the reply to the chat of its parent.`);
  }
  const root = await heldRoot(db, named.thread_parent ?? named.uid);
  if (!root) throw invalidParameter('threadParent', `The thread of message ${threadParent} no longer exists.`);
  if (root.deleted_at !== null) throw invalidParameter('threadParent', `Message ${root.uid} was deleted; its thread is read-only.`);
  if (root.visible_to !== null) {
    throw invalidParameter('threadParent', `Message ${root.uid} is shown to only some people; threads start on messages everyone in the chat sees.`);
  }
  return root;
}

/**
 * A thread's root, read once its row is held for the rest of the transaction (store/rows/messages.ts,
 * lockMessages): a deletion of it under way is waited for, and one that comes later waits for the change
 * that adds to its thread (a reply, a follow). Undefined when it is gone.
 */
export async function heldRoot(db: Db, rootUid: string): Promise<MessagesTable | undefined> {
  await lockMessages(db, [rootUid], 'attach');
  return db.selectFrom('messages').selectAll().where('uid', '=', rootUid).executeTakeFirst();
}

/**
 * The root whose replies chat.fetchMessages pages with `thread`: a message of this chat that the reader
 * sees (a reply names its root's thread), else InvalidParameter naming `thread`.
 */
export async function threadToRead(db: Db, chatKey: string, readerId: string, thread: string): Promise<string> {
  const [named] = await findMessagesByUids(db, chatKey, readerId, [thread]);
  if (!named) throw invalidParameter('thread', `There is no message ${thread} in this chat that you can see; thread takes the uid of a message of the chat.`);
  return named.thread_parent ?? named.uid;
}
