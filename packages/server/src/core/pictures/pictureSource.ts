import { maxPictureBytes } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import type { FilesTable, UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { unknownFile } from '../files/fileAccess.js';
import { describeBytes } from '../files/receiveStream.js';
import { IMAGE_PIXEL_LIMIT, withinPixelLimit } from '../files/imageSize.js';

/** The types a picture is made from: what browsers show and libvips reads (never SVG, which could run script). */
const PICTURE_TYPES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP', 'image/avif': 'AVIF' };
const TYPES_NAMED = 'a PNG, JPEG, GIF, WebP or AVIF image';

/**
 * The upload a picture is made from (files.upload, then users.setProfileImage or team.setIcon): a file the
 * person uploaded, whose bytes (never its name) are an image of a type above, of at most maxPictureBytes
 * and IMAGE_PIXEL_LIMIT pixels. Each refusal names the parameter `file` and says what to send instead.
 */
export async function pictureSource(db: Db, person: UsersTable, fileId: string): Promise<FilesTable> {
  const file = await db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', fileId)
    .where('team_id', '=', person.team_id)
    .where('uploaded_by', '=', person.id)
    .where('state', '=', 'stored')
    .executeTakeFirst();
  if (!file) throw unknownFile(fileId);
  if (PICTURE_TYPES[file.mime_type] === undefined) {
    const is = file.mime_type === 'application/octet-stream' ? 'not an image this server recognises' : `a ${file.mime_type} file`;
    throw new ApiError('UnsupportedFile', `File ${file.id} ("${file.name.slice(0, 80)}") is ${is}; a picture is made from ${TYPES_NAMED}.`, { parameter: 'file' });
  }
  if (Number(file.size) > maxPictureBytes) {
    throw new ApiError('FileTooLarge', `File ${file.id} has ${describeBytes(Number(file.size))}; a picture is made from at most ${describeBytes(maxPictureBytes)}: send a smaller image.`, { parameter: 'file' });
  }
  if (file.width === null || file.height === null) {
    throw new ApiError('UnsupportedFile', `File ${file.id} says it is ${PICTURE_TYPES[file.mime_type]}, but its size in pixels could not be read: send an image that opens elsewhere.`, { parameter: 'file' });
  }
  if (!withinPixelLimit(file)) {
    throw new ApiError(
      'FileTooLarge',
      `File ${file.id} is ${file.width} × ${file.height} pixels; a picture may have at most ${IMAGE_PIXEL_LIMIT / 1_000_000} million pixels (7,000 × 7,000 for a square): scale it down first.`,
      { parameter: 'file' },
    );
  }
  return file;
}
