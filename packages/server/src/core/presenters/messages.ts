import type { MessageModel } from '@aviary/protocol';
import type { MessagesTable } from '../../store/schema.js';

/** A stored message as the API shows it (the Message of docs/reference/methods.md): optional fields only when set. */
export function presentMessage(row: MessagesTable): MessageModel {
  return {
    uid: row.uid,
    ...(row.client_id !== null ? { id: row.client_id } : {}),
    from: row.from_user_id,
    to: row.to_id,
    timestamp: row.timestamp,
    text: row.text,
    ...(row.serviceml !== null ? { serviceml: row.serviceml } : {}),
    ...(row.notification !== null ? { notification: row.notification } : {}),
    ...(row.mentions !== null ? { mentions: JSON.parse(row.mentions) } : {}),
    ...(row.send_as !== null ? { sendAs: JSON.parse(row.send_as) } : {}),
    ...(row.app_id !== null ? { appId: row.app_id } : {}),
    ...(row.attachments !== null ? { attachments: JSON.parse(row.attachments) } : {}),
    ...(row.visible_to !== null ? { visibleTo: JSON.parse(row.visible_to) } : {}),
    ...(row.edited_at !== null ? { editedAt: row.edited_at } : {}),
  };
}
