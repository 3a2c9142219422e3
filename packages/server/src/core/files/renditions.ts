import sharp from 'sharp';
import { Readable } from 'node:stream';
import type { FilesTable } from '../../store/schema.js';
import { fileStorageFor } from '../../files/storage.js';
import type { CoreContext } from '../context.js';
import { IMAGE_PIXEL_LIMIT } from './imageSize.js';
import { storageKey } from './presentFile.js';

/** The longest side of each rendition, in pixels. */
export const RENDITION_SIDES = { thumbnail: 360, preview: 1600 } as const;

/**
 * An image's thumbnail and preview, as WebP, made after the upload was answered (ctx.background):
 * EXIF orientation applied (rotate()), no metadata kept (sharp writes none unless told: no location,
 * no camera), and never more than IMAGE_PIXEL_LIMIT pixels decoded (sharp's limitInputPixels refuses
 * a decompression bomb before decoding it). The row says 'ready' once both are stored; an image sharp
 * cannot read keeps 'none', and is served as it is.
 */
export async function makeRenditions(ctx: CoreContext, file: FilesTable): Promise<void> {
  const storage = fileStorageFor(ctx.config);
  let renditions: FilesTable['renditions'] = 'none';
  try {
    const original = sharp({ limitInputPixels: IMAGE_PIXEL_LIMIT, failOn: 'error', animated: false }).rotate();
    (await storage.get(storageKey(file))).pipe(original);
    for (const [name, side] of Object.entries(RENDITION_SIDES) as Array<[keyof typeof RENDITION_SIDES, number]>) {
      const bytes = await original.clone().resize(side, side, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
      await storage.put(storageKey(file, name), Readable.from([bytes]));
    }
    renditions = 'ready';
  } catch (error) {
    ctx.log.warn({ err: error, fileId: file.id }, 'no thumbnail for this image');
  }
  await ctx.db.updateTable('files').set({ renditions }).where('id', '=', file.id).where('state', '=', 'stored').execute();
}
