import { pipeline, Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { FilesTable, UsersTable } from '../../store/schema.js';
import { lockRows } from '../../store/rows/locks.js';
import type { Db, Tx } from '../../store/store.js';
import { fileStorageFor } from '../../files/storage.js';
import { invalidParameter } from '../../errors.js';
import type { CoreContext } from '../context.js';
import { fileTooLarge, quotaExceeded, ReceivedFile } from './receiveStream.js';
import { cleanFileName, RENDERED_TYPES, storageKey } from './presentFile.js';
import { makeRenditions } from './renditions.js';
import { withinPixelLimit } from './imageSize.js';
import { storeWithoutLocation } from './storeOriginal.js';

/** Who uploads: a person (appId null) or a token's user or bot through its app. */
export interface Uploader {
  user: UsersTable;
  appId: string | null;
}

/**
 * What a multipart request may carry beyond the file's own bytes (boundaries, the part's headers with
 * its name): a Content-Length above the limit by more than this cannot be a file within it.
 */
export const MULTIPART_ALLOWANCE = 16 * 1024;

const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
export const newFileId = (): string => `f:${Array.from(randomBytes(16), (byte) => base32[byte & 31]).join('')}`;

/** Bytes of the team's files, each counted once (the rows of uploads under way, at what they hold: insertHoldingQuota). */
export async function teamFileBytes(db: Db | Tx, teamId: string): Promise<number> {
  const row = await db.selectFrom('files').select((eb) => eb.fn.sum<number | string | null>('size').as('total')).where('team_id', '=', teamId).executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** How much of the team's quota a file about to be received needs (or it is refused) and may take at most. */
export interface QuotaClaim {
  need: number;
  want: number;
  /** The parameter a refusal names: `size` when announced, else `file`. */
  parameter: 'size' | 'file';
}

/**
 * The checks made from Content-Length and the `size` announced before a byte of the body is read: a
 * length that cannot be a file within the limit is refused at once, and so is a `size` the body cannot
 * hold. Answers the file's claim on the team's quota, held when its row is written (insertHoldingQuota):
 * the size announced; else at least what the body must hold and at most its length; else (no
 * Content-Length) anything up to the limit.
 */
export function checkDeclaredLength(ctx: Pick<CoreContext, 'config'>, contentLength: number | undefined, size?: number): QuotaClaim {
  const { maxFileBytes } = ctx.config.files;
  if (size !== undefined) {
    if (size > maxFileBytes) throw fileTooLarge(maxFileBytes, 'size');
    if (contentLength !== undefined && size > contentLength) {
      throw invalidParameter('size', `A body of ${contentLength} bytes cannot hold a file of ${size}: send the file’s exact size in bytes, or no \`size\`.`);
    }
    return { need: size, want: size, parameter: 'size' };
  }
  if (contentLength === undefined) return { need: 0, want: maxFileBytes, parameter: 'file' };
  const fileAtLeast = Math.max(0, contentLength - MULTIPART_ALLOWANCE);
  if (fileAtLeast > maxFileBytes) throw fileTooLarge(maxFileBytes);
  return { need: fileAtLeast, want: Math.min(contentLength, maxFileBytes), parameter: 'file' };
}

/**
 * Writes the row of a file about to be received, its `size` holding the file's share of the team's
 * quota until its bytes are all in (markStored sets what they came to) or it fails (its row goes): what
 * the claim wants, or what is left if less, but never less than it needs (QuotaExceeded). The look at
 * what is left and the insert take turns per team (PostgreSQL: the team's row, `for no key update`,
 * which sends do not wait for; SQLite: one writer), so uploads begun at once never count the same bytes
 * as free. Answers the bytes held: the most the file may have.
 */
export async function insertHoldingQuota(ctx: Pick<CoreContext, 'db' | 'config'>, row: FilesTable, claim: QuotaClaim): Promise<number> {
  return ctx.db.transaction().execute(async (tx) => {
    await lockRows(tx, 'teams', 'id', [row.team_id], 'no key update');
    const left = ctx.config.files.teamQuotaBytes - (await teamFileBytes(tx, row.team_id));
    if (claim.need > left) throw quotaExceeded(left, claim.parameter);
    const held = Math.min(claim.want, left);
    await tx.insertInto('files').values({ ...row, size: held }).execute();
    return held;
  });
}

/**
 * Streams one uploaded file to storage. Its row is written first ('uploading', holding its share of the
 * team's quota: insertHoldingQuota), so an upload cut off by a crash is found by the sweep; the bytes are counted and typed on the way (ReceivedFile), and an
 * image's location taken out of its metadata (storeWithoutLocation); a failure removes what was stored and
 * the row. A `size` announced is held to (a file of another length is refused) and lets S3 take the
 * file as one PutObject. Answers the stored row.
 */
export async function receiveFile(
  ctx: CoreContext,
  uploader: Uploader,
  part: { stream: Readable; filename?: string; size?: number },
  claim: QuotaClaim,
  signal?: AbortSignal,
): Promise<FilesTable> {
  const now = ctx.now();
  const row: FilesTable = {
    id: newFileId(),
    team_id: uploader.user.team_id,
    uploaded_by: uploader.user.id,
    app_id: uploader.appId,
    name: cleanFileName(part.filename),
    size: 0,
    mime_type: 'application/octet-stream',
    state: 'uploading',
    width: null,
    height: null,
    renditions: 'none',
    created_at: now,
    attached_at: null,
  };
  const quotaLeft = await insertHoldingQuota(ctx, row, claim);
  const storage = fileStorageFor(ctx.config);
  const received = new ReceivedFile(row.name, { maxFileBytes: ctx.config.files.maxFileBytes, quotaLeft, size: part.size });
  pipeline(part.stream, received, () => undefined);
  // A client that goes away mid-file may leave the part's stream neither ended nor failed: fail it.
  const cutOff = () => received.destroy(new Error('the client closed the connection before the file’s last byte'));
  if (signal?.aborted) cutOff();
  signal?.addEventListener('abort', cutOff, { once: true });
  try {
    await storeWithoutLocation(storage, storageKey(row), received, part.size);
    if (signal?.aborted) throw new Error('the client closed the connection before the file’s last byte');
  } catch (error) {
    await storage.delete(storageKey(row)).catch(() => undefined);
    await ctx.db.deleteFrom('files').where('id', '=', row.id).execute();
    throw error;
  } finally {
    signal?.removeEventListener('abort', cutOff);
  }
  return markStored(ctx, row, received);
}

/** The row of a file whose bytes are all stored, with what they showed on the way; its renditions made in the background. */
export async function markStored(ctx: CoreContext, row: FilesTable, received: ReceivedFile): Promise<FilesTable> {
  const dimensions = received.size ?? { width: null, height: null };
  const rendered = RENDERED_TYPES.has(received.mimeType) && withinPixelLimit(dimensions);
  const stored: FilesTable = { ...row, ...dimensions, size: received.received, mime_type: received.mimeType, state: 'stored', renditions: rendered ? 'pending' : 'none' };
  const { size, mime_type, width, height, renditions } = stored;
  await ctx.db.updateTable('files').set({ size, mime_type, width, height, renditions, state: 'stored' }).where('id', '=', row.id).execute();
  if (rendered) ctx.background.run(`renditions of ${row.id}`, () => makeRenditions(ctx, stored));
  return stored;
}
