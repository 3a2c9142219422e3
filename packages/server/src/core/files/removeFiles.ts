import type { FileInfoModel } from '@aviary/protocol';
import type { Tx } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { fileStorageFor } from '../../files/storage.js';
import type { FilesTable, MessagesTable } from '../../store/schema.js';
import { storageKey } from './presentFile.js';
import { lockFiles } from '../../store/rows/files.js';
import { lockMessages, setMessageFiles } from '../../store/rows/messages.js';

/**
 * Unlinks messages about to be deleted from their files (in the deleting transaction). A file no other
 * message carries (nor a scheduled message holds) any more is detached (attached_at back to null): chat.deleteMessage and retention remove
 * it with its bytes right after the commit (removeDetached). A file shared by several
 * messages stays while one still carries it. Answers the ids of the files detached.
 */
export async function unlinkMessages(tx: Tx, uids: readonly string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const linked = await tx.selectFrom('message_files').select('file_id').distinct().where('message_uid', 'in', [...uids]).execute();
  if (linked.length === 0) return [];
  // A message being sent with one of them meanwhile is waited for, and counted among the carriers below.
  await lockFiles(tx, linked.map((row) => row.file_id), 'delete');
  await tx.deleteFrom('message_files').where('message_uid', 'in', [...uids]).execute();
  return detachUncarried(tx, linked.map((row) => row.file_id));
}

/**
 * Of these files (locked by the caller against sends), those that no message carries and no scheduled
 * message holds any more go back to their uploader alone (attached_at null): removed by the caller or
 * by the sweep. Answers their ids.
 */
export async function detachUncarried(tx: Tx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const carried = await tx.selectFrom('message_files').select('file_id').where('file_id', 'in', [...ids]).execute();
  const held = await tx.selectFrom('scheduled_files').select('file_id').where('file_id', 'in', [...ids]).execute();
  const stillCarried = new Set([...carried, ...held].map((row) => row.file_id));
  const detached = ids.filter((id) => !stillCarried.has(id));
  if (detached.length > 0) await tx.updateTable('files').set({ attached_at: null }).where('id', 'in', detached).execute();
  return detached;
}

/** Deletes detached files (unlinkMessages) and their bytes, unless a message carries them again meanwhile. Answers how many it deleted. */
export async function removeDetached(ctx: Pick<CoreContext, 'config' | 'log' | 'db'>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await ctx.db.deleteFrom('files').where('id', 'in', [...ids]).where('attached_at', 'is', null).returning(['id', 'team_id']).execute();
  await removeBytes(ctx, deleted);
  return deleted.length;
}

/**
 * Deletes one file's row and its links, and takes it out of the messages that carried it (their
 * `files` no longer list it). Runs in the caller's transaction; the bytes go after it commits. Answers
 * the messages changed, as they are now, for their `message.updated` frames.
 */
export async function deleteFileRow(tx: Tx, file: FilesTable): Promise<MessagesTable[]> {
  const carriersOf = () => tx.selectFrom('message_files').select('message_uid').where('file_id', '=', file.id).execute();
  // The messages that carry it, then the file itself (messages before files, as every change locks
  // them); a message being sent with it meanwhile is waited for, and found among the carriers.
  await lockMessages(tx, (await carriersOf()).map((row) => row.message_uid), 'edit');
  await lockFiles(tx, [file.id], 'delete');
  const carriers = await carriersOf();
  await tx.deleteFrom('message_files').where('file_id', '=', file.id).execute();
  // A scheduled message holding it will be refused at its time (UnknownFile), as a send now would be.
  await tx.deleteFrom('scheduled_files').where('file_id', '=', file.id).execute();
  const changed: MessagesTable[] = [];
  for (const { message_uid } of carriers) {
    const message = await tx.selectFrom('messages').select('files').where('uid', '=', message_uid).executeTakeFirst();
    const shown: FileInfoModel[] = message?.files ? JSON.parse(message.files) : [];
    const left = shown.filter((entry) => entry.id !== file.id);
    const updated = await setMessageFiles(tx, message_uid, left.length === 0 ? null : JSON.stringify(left));
    if (updated) changed.push(updated);
  }
  await tx.deleteFrom('files').where('id', '=', file.id).execute();
  return changed;
}

/**
 * Removes every stored key that starts with `prefix`, recorded or not: a part a crash cut off before
 * its upload recorded it, a write never renamed into place. Logs what it cannot remove.
 */
export async function removeStoredUnder(ctx: Pick<CoreContext, 'config' | 'log'>, prefix: string): Promise<void> {
  const storage = fileStorageFor(ctx.config);
  for await (const { key } of storage.list(prefix)) {
    await storage.delete(key).catch((error: unknown) => ctx.log.warn({ err: error, key }, 'could not delete a left-over object from storage'));
  }
}

/** Removes the bytes of deleted files, and their renditions, from storage (after the deletion committed). */
export async function removeBytes(ctx: Pick<CoreContext, 'config' | 'log'>, files: readonly Pick<FilesTable, 'id' | 'team_id'>[]): Promise<void> {
  const storage = fileStorageFor(ctx.config);
  for (const file of files) {
    for (const key of [storageKey(file), storageKey(file, 'thumbnail'), storageKey(file, 'preview')]) {
      await storage.delete(key).catch((error: unknown) => ctx.log.warn({ err: error, key }, 'could not delete a deleted file’s bytes from storage'));
    }
  }
}
