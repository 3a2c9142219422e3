import { ApiError } from '../../errors.js';
import type { FilesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { findVisibleMessage } from '../interactions/visibleMessage.js';

/** Who asks for a file: a person (appId null, kind 'person') or a token's user or bot through its app. */
export interface FileReader {
  user: UsersTable;
  appId: string | null;
  kind: 'person' | 'user' | 'bot';
}

/** The sender of a message as the reader of its files: a person's session, or a token's user or bot through its app. */
export const senderAsReader = (user: UsersTable, appId: string | null): FileReader => ({ user, appId, kind: appId === null ? 'person' : 'user' });

/** Messages looked at to find one the reader sees: a file shared more often than this is found through the newest ones. */
const MESSAGES_LOOKED_AT = 50;

export const unknownFile = (id: string, parameter = 'file'): ApiError =>
  new ApiError('UnknownFile', `There is no file ${id.slice(0, 40)} that you can see: it does not exist, it was deleted, or no message you can see carries it.`, { parameter });

/** The reader uploaded it: a person, whichever way; a token, through its own app. */
export const uploadedBy = (file: Pick<FilesTable, 'uploaded_by' | 'app_id'>, reader: FileReader): boolean =>
  file.uploaded_by === reader.user.id && (reader.kind === 'person' || file.app_id === reader.appId);

/**
 * A stored file the reader may see (docs/reference/files.md "Who sees a file"): one they uploaded, or
 * one a message they can see carries, with the rules of chat.fetchMessages (a channel they left, a
 * message `visibleTo` hides from them: not seen). Anything else is UnknownFile, whether it exists or not.
 */
export async function findReadableFile(db: Db, reader: FileReader, id: string, parameter = 'file'): Promise<FilesTable> {
  const file = await db.selectFrom('files').selectAll().where('id', '=', id).where('team_id', '=', reader.user.team_id).where('state', '=', 'stored').executeTakeFirst();
  if (!file) throw unknownFile(id, parameter);
  if (uploadedBy(file, reader)) return file;
  if ((await firstVisibleCarrier(db, reader.user, id)) === undefined) throw unknownFile(id, parameter);
  return file;
}

/** The newest message carrying the file that the person can see, if any. */
export async function firstVisibleCarrier(db: Db, person: UsersTable, fileId: string): Promise<string | undefined> {
  const carriers = await db.selectFrom('message_files').select('message_uid').where('file_id', '=', fileId).orderBy('message_uid', 'desc').limit(MESSAGES_LOOKED_AT).execute();
  for (const { message_uid } of carriers) {
    try {
      await findVisibleMessage(db, person, message_uid);
      return message_uid;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return undefined;
}
