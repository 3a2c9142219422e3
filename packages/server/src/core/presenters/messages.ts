import type { MessageModel, MessageReactionModel, MessageRefModel } from '@aviary/protocol';
import type { MessagesTable } from '../../store/schema.js';
import type { ShownMessageRow } from '../queries/shownMessages.js';
import { presentThread } from '../threads/summary.js';
import { assignSetFields, parsedJson } from './setFields.js';
import { isStoredBroadcast } from '../policies/broadcastMentions.js';

/**
 * A stored message as the API shows it (the Message of docs/reference/methods.md): optional fields only when
 * set. Built as one object, field by field in the order the API shows them: a page presents a hundred.
 */
export function presentMessage(row: MessagesTable): MessageModel {
  const message: Record<string, unknown> = { uid: row.uid };
  if (row.client_id !== null) message.id = row.client_id;
  message.from = row.from_user_id;
  message.to = row.to_id;
  message.timestamp = row.timestamp;
  message.text = row.text;
  assignSetFields(message, {
    serviceml: row.serviceml,
    notification: row.notification,
    mentions: userMentions(row.mentions),
    sendAs: parsedJson(row.send_as),
    appId: row.app_id,
    attachments: parsedJson(row.attachments),
    visibleTo: parsedJson(row.visible_to),
    editedAt: row.edited_at,
    webhookId: row.webhook_id,
    threadParent: row.thread_parent,
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
    files: parsedJson(row.files ?? null),
  });
  if (Number(row.also_in_channel) === 1) message.alsoInChannel = true;
  return message as MessageModel;
}

/**
 * A message as chat.fetchMessages shows it: with its reactions as the reader sees them (when it has any),
 * its pin and its thread's summary.
 */
export function presentShownMessage(row: ShownMessageRow, reactions: MessageReactionModel[] | undefined): MessageModel {
  const message = presentMessage(row);
  if (reactions) message.reactions = reactions;
  if (row.pinned_by !== null && row.pinned_at !== null) message.pinned = { by: row.pinned_by, at: Number(row.pinned_at) };
  if (row.reply_count !== null && row.participants !== null && row.last_reply_uid !== null && row.last_reply_at !== null) {
    message.thread = presentThread({ reply_count: row.reply_count, participants: row.participants, last_reply_uid: row.last_reply_uid, last_reply_at: row.last_reply_at });
  }
  return message;
}

/** Which message a frame or an event names, without what it says. */
export const presentMessageRef = (row: Pick<MessagesTable, 'uid' | 'from_user_id' | 'to_id'>): MessageRefModel => ({ uid: row.uid, from: row.from_user_id, to: row.to_id });

/** The people a message names: its stored mentions without its broadcast (@channel, @here), none when only that. */
function userMentions(stored: string | null): string[] | null {
  const mentions = parsedJson(stored) as string[] | null;
  if (mentions === null || !mentions.some(isStoredBroadcast)) return mentions;
  const people = mentions.filter((entry) => !isStoredBroadcast(entry));
  return people.length > 0 ? people : null;
}
