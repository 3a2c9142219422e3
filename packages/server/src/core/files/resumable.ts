import { randomBytes } from 'node:crypto';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { ApiError, invalidParameter } from '../../errors.js';
import { fileStorageFor, type FileStorage } from '../../files/storage.js';
import { isSqlite } from '../../store/rows/streamEntries.js';
import type { FilesTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import type { CoreContext } from '../context.js';
import { uploadedBy, type FileReader } from './fileAccess.js';
import { cleanFileName, storageKey } from './presentFile.js';
import { fileTooLarge, ReceivedFile } from './receiveStream.js';
import { removeStoredUnder } from './removeFiles.js';
import { insertHoldingQuota, markStored, newFileId, type Uploader } from './upload.js';
import { storeWithoutLocation } from './storeOriginal.js';

/** A resumable upload as the methods show it (docs/reference/files.md "Resumable uploads"). */
export interface UploadState {
  uploadId: string;
  name: string;
  size: number;
  offset: number;
  expiresAt: number;
}

const cutOff = () => new Error('the client closed the connection before the part’s last byte');

/** Where one part's bytes are kept until the upload is finished: a name new for every part sent (all of them start with `partKey(row, '')`). */
export const partKey = (row: Pick<FilesTable, 'team_id' | 'id'>, storageName: string) => `${storageKey(row)}.part-${storageName}`;

/**
 * files.startUpload: the size is checked against the limit per file and what is left of the team's
 * quota now, before any byte is sent; the file's row ('resumable', `size` the size announced) holds
 * that much of the quota until the upload is finished or swept.
 */
export async function startUpload(ctx: CoreContext, uploader: Uploader, params: { name: string; size: number }): Promise<UploadState> {
  const { maxFileBytes } = ctx.config.files;
  if (params.size > maxFileBytes) throw fileTooLarge(maxFileBytes, 'size');
  const row: FilesTable = {
    id: newFileId(),
    team_id: uploader.user.team_id,
    uploaded_by: uploader.user.id,
    app_id: uploader.appId,
    name: cleanFileName(params.name),
    size: params.size,
    mime_type: 'application/octet-stream',
    state: 'resumable',
    width: null,
    height: null,
    renditions: 'none',
    created_at: ctx.now(),
    attached_at: null,
  };
  await insertHoldingQuota(ctx, row, { need: params.size, want: params.size, parameter: 'size' });
  return describe(ctx, row, 0);
}

/** files.getUpload: the upload with the bytes stored so far. */
export async function getUpload(ctx: CoreContext, reader: FileReader, id: string): Promise<UploadState> {
  const row = await findUpload(ctx.db, reader, id);
  return describe(ctx, row, await storedBytes(ctx.db, id));
}

/**
 * files.uploadPart: the part's bytes, streamed to storage on their own, then recorded as the upload's
 * next part. The part must start where the stored bytes end, and may not go past the size announced:
 * a Content-Length that does is refused before the body is read, a body that does at its first byte
 * too many. A part cut off (or refused) leaves nothing; the upload's offset stays where it was.
 */
export async function uploadPart(
  ctx: CoreContext,
  reader: FileReader,
  part: { uploadId: string; offset: number; body: Readable; declaredLength?: number; signal?: AbortSignal },
): Promise<UploadState> {
  const row = await findUpload(ctx.db, reader, part.uploadId);
  const offset = await storedBytes(ctx.db, row.id);
  if (part.offset !== offset) throw wrongOffset(row, offset);
  const left = Number(row.size) - offset;
  if (part.declaredLength !== undefined && part.declaredLength > left) throw pastTheSize(row, offset);
  const storage = fileStorageFor(ctx.config);
  const storageName = randomBytes(8).toString('hex');
  const counted = new CountedPart(() => pastTheSize(row, offset), left);
  pipeline(part.body, counted, () => undefined);
  const abort = () => counted.destroy(cutOff());
  if (part.signal?.aborted) abort();
  part.signal?.addEventListener('abort', abort, { once: true });
  try {
    await storage.put(partKey(row, storageName), counted);
    if (part.signal?.aborted) throw cutOff();
  } catch (error) {
    await storage.delete(partKey(row, storageName)).catch(() => undefined);
    throw error;
  } finally {
    part.signal?.removeEventListener('abort', abort);
  }
  const recorded = counted.received > 0 && (await recordPart(ctx.db, row, { start: offset, size: counted.received, storageName }));
  if (!recorded) await storage.delete(partKey(row, storageName)).catch(() => undefined);
  if (counted.received > 0 && !recorded) throw wrongOffset(row, await storedBytes(ctx.db, row.id));
  return describe(ctx, row, offset + counted.received);
}

/**
 * files.finishUpload: once every byte announced is stored, the parts are read back in order into the
 * file's own key, through what files.upload passes its bytes through (the type from the bytes, the
 * location taken out of an image), then removed. A file its name says is an image and its bytes are
 * not is refused (UnsupportedFile) and removed with its parts.
 */
export async function finishUpload(ctx: CoreContext, reader: FileReader, id: string): Promise<FilesTable> {
  const row = await findUpload(ctx.db, reader, id);
  const parts = await ctx.db.selectFrom('file_upload_parts').selectAll().where('file_id', '=', id).orderBy('start').execute();
  const stored = parts.reduce((sum, part) => sum + Number(part.size), 0);
  if (stored !== Number(row.size)) {
    throw invalidParameter('uploadId', `Upload ${id} has ${stored} of its ${row.size} bytes: send the rest with files.uploadPart from offset ${stored}, then finish it.`);
  }
  // One finish at a time: a second call made meanwhile finds no upload.
  const claimed = await ctx.db.updateTable('files').set({ state: 'uploading' }).where('id', '=', id).where('state', '=', 'resumable').executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw unknownUpload(id);
  const storage = fileStorageFor(ctx.config);
  const keys = parts.map((part) => partKey(row, part.storage_name));
  const size = Number(row.size);
  const received = new ReceivedFile(row.name, { maxFileBytes: size, quotaLeft: size, size });
  pipeline(Readable.from(joined(storage, keys)), received, () => undefined);
  try {
    // Its size known, the file goes to S3 as one PutObject rather than a multipart upload.
    await storeWithoutLocation(storage, storageKey(row), received, size);
  } catch (error) {
    await storage.delete(storageKey(row)).catch(() => undefined);
    await removeUploads(ctx, [row]);
    throw error;
  }
  await removeUploadParts(ctx, [row]);
  return markStored(ctx, row, received);
}

/** Removes uploads' rows, their parts and the bytes of those (a failed finish). */
async function removeUploads(ctx: Pick<CoreContext, 'db' | 'config' | 'log'>, rows: readonly Pick<FilesTable, 'id' | 'team_id'>[]): Promise<void> {
  await ctx.db.deleteFrom('files').where('id', 'in', rows.map((row) => row.id)).execute();
  await removeUploadParts(ctx, rows);
}

/**
 * Removes the parts of uploads whose rows are gone or finished, with their bytes: every key under the
 * file's parts, the recorded ones and those a process that crashed mid-part wrote and never recorded
 * (storage's listing finds them). A part being recorded at the same moment finds its file's row gone
 * and removes its own bytes (recordPart).
 */
export async function removeUploadParts(ctx: Pick<CoreContext, 'db' | 'config' | 'log'>, rows: readonly Pick<FilesTable, 'id' | 'team_id'>[]): Promise<void> {
  await forgetUploadParts(ctx.db, rows);
  for (const row of rows) await removeStoredUnder(ctx, partKey(row, ''));
}

/** Deletes the records of uploads' parts; their bytes are the caller's to remove (all start with `partKey(row, '')`). */
export async function forgetUploadParts(db: Db, rows: readonly Pick<FilesTable, 'id'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.deleteFrom('file_upload_parts').where('file_id', 'in', rows.map((row) => row.id)).execute();
}

async function* joined(storage: FileStorage, keys: readonly string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield* await storage.get(key);
}

/**
 * Records a stored part, unless another part took its place meanwhile (two sent at once, a client
 * retrying a part whose answer it did not wait for): answers whether it did. An upload's parts are
 * recorded one at a time (its row, on PostgreSQL), so the second finds the first's bytes counted.
 */
async function recordPart(db: Db, row: FilesTable, part: { start: number; size: number; storageName: string }): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const upload = tx.selectFrom('files').select('id').where('id', '=', row.id).where('state', '=', 'resumable');
    const still = await (isSqlite(tx) ? upload : upload.forNoKeyUpdate()).executeTakeFirst();
    if (!still || (await storedBytes(tx, row.id)) !== part.start) return false;
    await tx.insertInto('file_upload_parts').values({ file_id: row.id, start: part.start, size: part.size, storage_name: part.storageName }).execute();
    return true;
  });
}

async function storedBytes(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('file_upload_parts').select((eb) => eb.fn.sum<number | string | null>('size').as('total')).where('file_id', '=', id).executeTakeFirst();
  return Number(row?.total ?? 0);
}

const unknownUpload = (id: string) =>
  new ApiError('UnknownFile', `There is no upload ${id.slice(0, 40)} of yours under way: it was never started this way, it was finished, or it was swept after it expired.`, {
    parameter: 'uploadId',
  });

/** An upload of the reader's (a token: through the same app) that is under way. */
async function findUpload(db: Db, reader: FileReader, id: string): Promise<FilesTable> {
  const row = await db.selectFrom('files').selectAll().where('id', '=', id).where('team_id', '=', reader.user.team_id).where('state', '=', 'resumable').executeTakeFirst();
  if (!row || !uploadedBy(row, reader)) throw unknownUpload(id);
  return row;
}

function describe(ctx: Pick<CoreContext, 'config'>, row: FilesTable, offset: number): UploadState {
  return { uploadId: row.id, name: row.name, size: Number(row.size), offset, expiresAt: Number(row.created_at) + ctx.config.files.orphanMs };
}

const wrongOffset = (row: FilesTable, offset: number) =>
  invalidParameter('offset', `Upload ${row.id} has ${offset} of its ${row.size} bytes: the next part starts at offset ${offset} (files.getUpload tells it after a cut connection).`);

const pastTheSize = (row: FilesTable, offset: number) =>
  new ApiError(
    'InvalidRequestData',
    `This part goes past the ${row.size} bytes files.startUpload announced: ${Number(row.size) - offset} are left from offset ${offset}. Start a new upload for a larger file.`,
    { parameter: 'offset' },
  );

/** Counts a part's bytes as they pass, failing at the first one past `limit`. */
class CountedPart extends Transform {
  received = 0;

  constructor(
    private readonly tooMany: () => Error,
    private readonly limit: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    callback(this.received > this.limit ? this.tooMany() : null, chunk);
  }
}
