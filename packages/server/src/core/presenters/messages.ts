import type { MessageModel, MessageRefModel } from '@aviary/protocol';
import type { MessagesTable } from '../../store/schema.js';
import { parsedJson, setFields } from './setFields.js';
import { isStoredBroadcast } from '../policies/broadcastMentions.js';

/** A stored message as the API shows it (the Message of docs/reference/methods.md): optional fields only when set. */
export function presentMessage(row: MessagesTable): MessageModel {
  return {
    uid: row.uid,
    ...setFields({ id: row.client_id }),
    from: row.from_user_id,
    to: row.to_id,
    timestamp: row.timestamp,
    text: row.text,
    ...setFields({
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
    }),
    ...(Number(row.also_in_channel) === 1 ? { alsoInChannel: true as const } : {}),
  };
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
