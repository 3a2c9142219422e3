import type { api, ResultOf } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findVisibleMessage } from '../interactions/visibleMessage.js';
import { setFields } from '../presenters/setFields.js';

type MessageEdits = ResultOf<typeof api.chat.listMessageEdits>['edits'];

/** What a message said before each edit, oldest first: for a team admin who can see the message. */
export async function listMessageEdits(db: Db, reader: UsersTable, messageUid: string): Promise<MessageEdits> {
  if (reader.role !== 'admin') throw new ApiError('PermissionDenied', 'Only a team admin may read the history of a message’s edits.');
  await findVisibleMessage(db, reader, messageUid);
  const rows = await db.selectFrom('message_edits').selectAll().where('message_uid', '=', messageUid).orderBy('edited_at').execute();
  return rows.map((row) => ({ editedAt: row.edited_at, editedBy: row.edited_by, previousText: row.previous_text, ...setFields({ previousServiceml: row.previous_serviceml }) }));
}
