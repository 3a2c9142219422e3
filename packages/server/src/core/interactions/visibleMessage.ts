import type { Attachment } from '@aviary/protocol';
import { ApiError, invalidParameter } from '../../errors.js';
import type { MessagesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findMessagesByUids } from '../queries/messages.js';
import { interactionChatOf, type InteractionChat } from './interactionChat.js';

/** A message the person may see, and the chat it is in as they name it. */
export interface VisibleMessage {
  row: MessagesTable;
  interactionChat: InteractionChat;
}

export const noSuchMessage = (uid: string): ApiError =>
  invalidParameter('messageUid', `There is no message ${uid} that you can see: it does not exist, or it is in a chat you cannot read.`);

/**
 * The message, when the person can read its chat and it is not hidden from them (`visibleTo`) — the
 * rules of chat.fetchMessages. Anything else is the same "no such message", so that nobody learns which
 * uids exist elsewhere.
 */
export async function findVisibleMessage(db: Db, person: UsersTable, uid: string): Promise<VisibleMessage> {
  const row = await db.selectFrom('messages').select('chat_key').where('uid', '=', uid).where('team_id', '=', person.team_id).executeTakeFirst();
  const chat = row ? chatAsSeenBy(person.id, row.chat_key) : undefined;
  if (chat === undefined) throw noSuchMessage(uid);
  let interactionChat: InteractionChat;
  try {
    interactionChat = await interactionChatOf(db, person, chat);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'UnknownChat') throw noSuchMessage(uid);
    throw error;
  }
  const [visible] = await findMessagesByUids(db, interactionChat.chatKey, person.id, [uid]);
  if (!visible) throw noSuchMessage(uid);
  return { row: visible, interactionChat };
}

/** A channel is named by its id; a direct chat by the other person's id, or undefined when the person is not in it. */
function chatAsSeenBy(personId: string, chatKey: string): string | undefined {
  if (!chatKey.includes('|')) return chatKey;
  const [first, second] = chatKey.split('|');
  if (first === personId) return second;
  if (second === personId) return first;
  return undefined;
}

/** The message's attachment with this id (attachments without an id cannot be acted on). */
export function findAttachment(row: MessagesTable, attachmentId: string): Attachment {
  const attachments: Attachment[] = row.attachments === null ? [] : JSON.parse(row.attachments);
  const attachment = attachments.find((candidate) => candidate.id === attachmentId);
  if (!attachment) throw invalidParameter('attachmentId', `Message ${row.uid} has no attachment with the id ${JSON.stringify(attachmentId)}.`);
  return attachment;
}

/**
 * The app that answers for what a message or one of its attachments shows: the attachment's app (a URL
 * preview's), else the app that sent the message. A person's own message has none.
 */
export function appBehind(row: MessagesTable, attachment?: Attachment): string {
  const appId = attachment?.appId ?? row.app_id;
  if (appId === null) {
    const parameter = attachment ? 'attachmentId' : 'messageUid';
    throw invalidParameter(parameter, `${attachment ? 'This attachment' : `Message ${row.uid}`} was not sent by an app, so there is no app to act on it.`);
  }
  return appId;
}
