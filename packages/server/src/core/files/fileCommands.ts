import { ApiError } from '../../errors.js';
import { runChange } from '../effects/effects.js';
import { recordMessageUpdate } from '../commands/internal/messageUpdates.js';
import type { FilesTable } from '../../store/schema.js';
import type { CoreContext } from '../context.js';
import { findReadableFile, uploadedBy, type FileReader } from './fileAccess.js';
import { deleteFileRow, removeBytes, removeStoredUnder } from './removeFiles.js';
import { storageKey } from './presentFile.js';
import { forgetUploadParts } from './resumable.js';

/**
 * files.delete: the uploader (a token: through its own app) deletes their file; a team admin, signed
 * in, any file they can see. The row, its links, its place in messages and their `message.updated`
 * frames go in one transaction (those who see a message live see the file leave it), the bytes right
 * after it commits.
 */
export async function deleteFile(ctx: CoreContext, reader: FileReader, { file: id }: { file: string }): Promise<void> {
  const file = await runChange(ctx, async (tx, effects) => {
    const found = await findReadableFile(tx, reader, id);
    const admin = reader.kind === 'person' && reader.user.role === 'admin';
    if (!uploadedBy(found, reader) && !admin) {
      const who = reader.kind === 'person' ? 'a person deletes only the files they uploaded (a team admin, any)' : 'a token deletes only the files uploaded through its own app';
      throw new ApiError('PermissionDenied', `File ${id} was not uploaded by you this way; ${who}.`, { parameter: 'file' });
    }
    const changed = await deleteFileRow(tx, found);
    const now = ctx.now();
    for (const message of changed.filter((shown) => shown.deleted_at === null)) {
      await recordMessageUpdate(tx, effects, message, { userId: reader.user.id, byAppId: reader.appId }, now);
    }
    return found;
  });
  await removeBytes(ctx, [file]);
}

/**
 * The sweep (docs/reference/files.md "Orphans"): files no message carries, uploaded more than
 * config.files.orphanMs ago (by ctx.now, the injectable clock) — an upload never sent, one cut off
 * before its last byte, whose bytes may be partly stored, or a resumable upload never finished, with
 * its parts, those it recorded and those a crash mid-part left unrecorded (found by listing storage
 * under the file's key). Deleted in batches; answers how many.
 */
export async function sweepOrphanFiles(ctx: Pick<CoreContext, 'db' | 'now' | 'config' | 'log'>, batchSize = 500): Promise<number> {
  const cutoff = ctx.now() - ctx.config.files.orphanMs;
  let swept = 0;
  for (;;) {
    const orphans: FilesTable[] = await ctx.db.selectFrom('files').selectAll().where('attached_at', 'is', null).where('created_at', '<', cutoff).limit(batchSize).execute();
    if (orphans.length === 0) return swept;
    const ids = orphans.map((file) => file.id);
    // Attached meanwhile (a message sent this instant): not an orphan after all.
    const deleted = await ctx.db.deleteFrom('files').where('id', 'in', ids).where('attached_at', 'is', null).returning(['id', 'team_id']).execute();
    await removeBytes(ctx, deleted);
    await forgetUploadParts(ctx.db, deleted);
    // Everything else under the file's key, listed once: its parts, recorded or not (partKey's names are
    // under it), and what a crash left (a write never renamed into place, a part never recorded).
    for (const file of deleted) await removeStoredUnder(ctx, `${storageKey(file)}.`);
    swept += deleted.length;
    if (orphans.length < batchSize) return swept;
  }
}
