import sharp from 'sharp';
import { Readable } from 'node:stream';
import { pictureSides } from '@aviary/protocol';
import { ApiError } from '../../errors.js';
import { fileStorageFor } from '../../files/storage.js';
import type { FilesTable, PicturesTable } from '../../store/schema.js';
import type { CoreContext } from '../context.js';
import { IMAGE_PIXEL_LIMIT } from '../files/imageSize.js';
import { storageKey } from '../files/presentFile.js';

export type PictureSide = (typeof pictureSides)[number];

/** Where a picture's square of one side lives in the files storage, beside the team's files. */
export const pictureKey = (picture: Pick<PicturesTable, 'team_id' | 'id'>, side: PictureSide): string => `${picture.team_id.replace(':', '_')}/pictures/${picture.id}.${side}.webp`;

/**
 * The picture's squares, one per side of pictureSides, as WebP in the files storage: EXIF orientation
 * applied (rotate()) and no metadata kept (sharp writes none unless told: no location, no camera), the
 * middle of what draws the eye kept when the image is not square, the first frame of an animation.
 * An image libvips cannot decode is UnsupportedFile, and nothing stays stored.
 */
export async function storeSquares(ctx: Pick<CoreContext, 'config' | 'log'>, file: FilesTable, picture: Pick<PicturesTable, 'team_id' | 'id'>): Promise<void> {
  const storage = fileStorageFor(ctx.config);
  try {
    const source = sharp({ limitInputPixels: IMAGE_PIXEL_LIMIT, failOn: 'error', animated: false }).rotate();
    (await storage.get(storageKey(file))).pipe(source);
    for (const side of pictureSides) {
      const bytes = await source.clone().resize(side, side, { fit: 'cover', position: sharp.strategy.attention }).webp({ quality: 82 }).toBuffer();
      await storage.put(pictureKey(picture, side), Readable.from([bytes]));
    }
  } catch (error) {
    await removeSquares(ctx, [picture]);
    const reason = error instanceof Error ? error.message.slice(0, 160) : 'unreadable';
    throw new ApiError('UnsupportedFile', `File ${file.id} could not be read as an image (${reason}); send an image that opens elsewhere.`, { parameter: 'file' });
  }
}

/** Removes pictures' squares from storage; a square not there is no error. */
export async function removeSquares(ctx: Pick<CoreContext, 'config' | 'log'>, pictures: ReadonlyArray<Pick<PicturesTable, 'team_id' | 'id'>>): Promise<void> {
  const storage = fileStorageFor(ctx.config);
  for (const picture of pictures) {
    for (const side of pictureSides) {
      const key = pictureKey(picture, side);
      await storage.delete(key).catch((error: unknown) => ctx.log.warn({ err: error, key }, 'could not delete a replaced picture’s bytes from storage'));
    }
  }
}
