import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '../../errors.js';

/** How many first bytes the type is read from (file-type needs at most a few KB for what it knows). */
export const SNIFF_BYTES = 8 * 1024;

type Family = 'image' | 'video' | 'audio';

/** What a name's extension claims: a family whose bytes file-type recognises, checked against them. */
const claimedFamily: Record<string, Family> = Object.fromEntries([
  ...['png', 'jpg', 'jpeg', 'jfif', 'gif', 'webp', 'avif', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'ico'].map((ext) => [ext, 'image']),
  ...['mp4', 'm4v', 'mov', 'webm', 'ogv', 'mkv', 'avi'].map((ext) => [ext, 'video']),
  ...['mp3', 'm4a', 'aac', 'oga', 'ogg', 'opus', 'wav', 'flac'].map((ext) => [ext, 'audio']),
]);

/** Containers that hold either sound or pictures: a .ogg may be a video, a .webm sound only. */
const eitherFamily = new Set(['video/webm', 'audio/webm', 'video/ogg', 'audio/ogg', 'video/mp4', 'audio/mp4', 'audio/x-m4a', 'video/quicktime']);

export const extensionOf = (name: string): string => (/\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1] ?? '').toLowerCase();

/**
 * The type of a file from its first bytes (file-type), never from its name: application/octet-stream
 * when they show nothing file-type knows (text, HTML and SVG among them, which are then never shown
 * inline). A name that claims a picture, video or sound the bytes are not is refused: a page that
 * trusted the name would show something else than what the person meant to share.
 */
export async function detectFileType(head: Buffer, name: string): Promise<string> {
  const detected = await fileTypeFromBuffer(head);
  const extension = extensionOf(name);
  const family = claimedFamily[extension];
  if (family !== undefined) {
    const mime = detected?.mime;
    const matches = mime !== undefined && (mime.startsWith(`${family}/`) || (family !== 'image' && eitherFamily.has(mime)));
    if (!matches) {
      throw new ApiError(
        'UnsupportedFile',
        `The name "${name.slice(0, 100)}" says ${family === 'image' ? 'an image' : `a ${family} file`} (.${extension}), but its bytes are ${mime ? `a ${mime} file` : 'not a type this server recognises'}; ` +
          'send the real file, or give it a name with the right extension.',
        { parameter: 'file' },
      );
    }
  }
  return detected?.mime ?? 'application/octet-stream';
}
