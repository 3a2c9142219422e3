import { pipeline } from 'node:stream';
import type { FileInfoModel } from '@aviary/protocol';
import type { FileStorage } from '../../../files/fileStorage.js';
import type { FilesTable, MessageFilesTable, MessagesTable } from '../../../store/schema.js';
import type { Tx } from '../../../store/store.js';
import { cleanFileName, presentFile, storageKey } from '../../files/presentFile.js';
import { ReceivedFile } from '../../files/receiveStream.js';
import { newFileId } from '../../files/upload.js';
import type { SlackFiles } from './slackFiles.js';
import type { SlackFile } from './slackExport.js';

/** Where a Slack import stores the files it finds, and the largest it takes (config.files). */
export interface SlackFileTarget {
  storage: FileStorage;
  maxFileBytes: number;
}

/**
 * Where a shared file's bytes sit in the export, if they are there at all: Slack's own export names
 * files by URL only, but tools that download them (slackdump among them) put them in the conversation's
 * `attachments/<id>-<name>`, or in `__uploads/<id>/<name>`.
 */
export function slackFilePath(files: SlackFiles, folder: string, file: SlackFile): string | undefined {
  if (typeof file.id !== 'string' || typeof file.name !== 'string' || file.id === '' || /[/\\]/.test(file.id)) return undefined;
  const candidates = [`${folder}/attachments/${file.id}-${file.name}`, `__uploads/${file.id}/${file.name}`];
  return candidates.find((path) => !path.split('/').some((part) => part === '..') && files.has(path));
}

/** The files of a Slack message stored as Aviary files: those shown on the message, and the links between them. */
export interface StoredSlackFiles {
  shown: FileInfoModel[];
  links: MessageFilesTable[];
}

/**
 * Stores one message's files found in the export, as an upload does: the row first, the bytes streamed
 * to storage through ReceivedFile (typed from their bytes, counted against the largest file the server
 * takes), then the row marked stored and attached at the message's time. A file that is refused (too
 * large, or a name that claims another type than its bytes) is left to be named by a line instead.
 * Answers what was stored and the files left; `stored` gets each storage key written, for removal if
 * the import fails.
 */
export async function storeSlackFiles(
  tx: Tx,
  target: SlackFileTarget,
  found: Array<{ file: SlackFile; path: string; files: SlackFiles }>,
  message: Pick<MessagesTable, 'uid' | 'chat_key' | 'team_id' | 'from_user_id' | 'timestamp'>,
  stored: string[],
): Promise<StoredSlackFiles & { refused: SlackFile[] }> {
  const result: StoredSlackFiles & { refused: SlackFile[] } = { shown: [], links: [], refused: [] };
  for (const { file, path, files } of found) {
    const row = await storeOne(tx, target, files, path, file, message, stored);
    if (!row) {
      result.refused.push(file);
      continue;
    }
    result.links.push({ message_uid: message.uid, file_id: row.id, chat_key: message.chat_key, position: result.shown.length });
    result.shown.push(presentFile(row));
  }
  return result;
}

async function storeOne(tx: Tx, target: SlackFileTarget, files: SlackFiles, path: string, file: SlackFile, message: Pick<MessagesTable, 'team_id' | 'from_user_id' | 'timestamp'>, stored: string[]): Promise<FilesTable | undefined> {
  const name = cleanFileName(file.name);
  const row: FilesTable = {
    id: newFileId(), team_id: message.team_id, uploaded_by: message.from_user_id, app_id: null, name, size: 0, mime_type: 'application/octet-stream',
    state: 'stored', width: null, height: null, renditions: 'none', created_at: message.timestamp, attached_at: message.timestamp,
  };
  const received = new ReceivedFile(name, { maxFileBytes: target.maxFileBytes, quotaLeft: Number.POSITIVE_INFINITY });
  pipeline(files.readStream(path), received, () => undefined);
  const key = storageKey(row);
  try {
    await target.storage.put(key, received);
  } catch (error) {
    await target.storage.delete(key).catch(() => undefined);
    if ((error as { code?: string }).code === 'FileTooLarge' || (error as { code?: string }).code === 'UnsupportedFile') return undefined;
    throw error;
  }
  stored.push(key);
  const stamped: FilesTable = { ...row, ...(received.size ?? {}), size: received.received, mime_type: received.mimeType };
  await tx.insertInto('files').values(stamped).execute();
  return stamped;
}
