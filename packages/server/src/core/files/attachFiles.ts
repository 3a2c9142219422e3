import type { FileInfoModel } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { MessagesTable } from '../../store/schema.js';
import type { Tx } from '../../store/store.js';
import { unknownFile, uploadedBy, type FileReader } from './fileAccess.js';
import { presentFile } from './presentFile.js';
import { lockFiles } from '../../store/rows/files.js';
import { detachUncarried } from './removeFiles.js';

/**
 * The files a message about to be sent carries: each one the sender uploaded (through this app, for a
 * token) and stored — its bytes are in storage before the message that names it commits. Checked and
 * linked in the message's own transaction: answers the files as the message shows them.
 */
export async function filesForMessage(tx: Tx, sender: FileReader, ids: readonly string[] | undefined): Promise<FileInfoModel[] | undefined> {
  if (ids === undefined || ids.length === 0) return undefined;
  await lockFiles(tx, ids, 'attach');
  const rows = await tx.selectFrom('files').selectAll().where('id', 'in', [...ids]).where('team_id', '=', sender.user.team_id).where('state', '=', 'stored').execute();
  return ids.map((id, index) => {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row || !uploadedBy(row, sender)) throw unknownFile(id, `files[${index}]`);
    return presentFile(row);
  });
}

/** Links the sent message to its files (message_files) and marks them attached: the sweep leaves them be. */
export async function linkMessageFiles(tx: Tx, message: Pick<MessagesTable, 'uid' | 'chat_key'>, files: readonly FileInfoModel[], now: number): Promise<void> {
  if (files.length === 0) return;
  await tx.insertInto('message_files').values(files.map((file, position) => ({ message_uid: message.uid, file_id: file.id, chat_key: message.chat_key, position }))).execute();
  await tx.updateTable('files').set({ attached_at: now }).where('id', 'in', files.map((file) => file.id)).where('attached_at', 'is', null).execute();
}

/** A repeated id in `files` is refused rather than shown twice. */
export function checkFileIds(ids: readonly string[] | undefined): void {
  if (ids === undefined) return;
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id)) throw new ApiError('InvalidParameter', `files[${index}] repeats ${id}; name each file once.`, { parameter: `files[${index}]` });
    seen.add(id);
  }
}

/**
 * A scheduled message's files (checked as a send checks them, filesForMessage) are held until it is sent,
 * cancelled or refused: marked attached, so that the sweep leaves them however late the message goes.
 */
export async function holdScheduledFiles(tx: Tx, scheduledId: string, files: readonly FileInfoModel[], now: number): Promise<void> {
  if (files.length === 0) return;
  await tx.insertInto('scheduled_files').values(files.map((file, position) => ({ scheduled_id: scheduledId, file_id: file.id, position }))).execute();
  await tx.updateTable('files').set({ attached_at: now }).where('id', 'in', files.map((file) => file.id)).where('attached_at', 'is', null).execute();
}

/** Lets a scheduled message's files go: those nothing else carries or holds are the uploader's alone again, for the sweep. */
export async function releaseScheduledFiles(tx: Tx, scheduledId: string): Promise<void> {
  const held = await tx.selectFrom('scheduled_files').select('file_id').where('scheduled_id', '=', scheduledId).execute();
  if (held.length === 0) return;
  const ids = held.map((row) => row.file_id);
  // A send with one of them meanwhile is waited for, and counted among the carriers.
  await lockFiles(tx, ids, 'delete');
  await tx.deleteFrom('scheduled_files').where('scheduled_id', '=', scheduledId).execute();
  await detachUncarried(tx, ids);
}
