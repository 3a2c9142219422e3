import sharp from 'sharp';

/**
 * The most pixels an image may have to be shown in the page or rendered (thumbnail, preview): a
 * decompression bomb (a small file of a huge, uniform picture) has far more, and is only downloadable.
 */
export const IMAGE_PIXEL_LIMIT = 50_000_000;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * An image's size as shown (EXIF orientation applied: a portrait photo stored sideways is taller than
 * wide), read from its header only: libvips decodes no pixel for this. Undefined when the bytes given
 * do not reach the size (a very long EXIF block first) or are no image sharp reads.
 */
export async function imageSize(head: Buffer): Promise<ImageSize | undefined> {
  try {
    const { width, height, orientation } = await sharp(head, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!width || !height) return undefined;
    return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
  } catch {
    return undefined;
  }
}

/** Whether an image of this size may be shown in the page and rendered. */
export const withinPixelLimit = (size: { width: number | null; height: number | null }): boolean =>
  size.width !== null && size.height !== null && size.width * size.height <= IMAGE_PIXEL_LIMIT;
