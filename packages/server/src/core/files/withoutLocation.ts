import { crc32 } from 'node:zlib';
import { ByteReader } from './byteReader.js';
import { blankExifGps } from './exifGps.js';

/** The most bytes of one metadata block held to edit it; a larger one is zeroed as it streams instead. */
const MAX_HELD = 256 * 1024;

/** A PNG chunk type no decoder knows, ancillary and safe to skip: what a text chunk carrying XMP or raw EXIF becomes. */
const SKIPPED_PNG_CHUNK = Buffer.from('avRy', 'latin1');

const startsWith = (bytes: Buffer, text: string) => bytes.toString('latin1', 0, text.length) === text;

/**
 * An uploaded file's bytes with the location taken out of a JPEG's, PNG's or WebP's metadata
 * (docs/reference/files.md "Images"): EXIF's GPS directory emptied in place (exifGps.ts), XMP (which
 * may repeat it) blanked. Every byte keeps its place, so the file's size and everything else in it
 * (the orientation, the pixels) stay as uploaded. Other files, and everything after an image's
 * metadata, pass through as they come; at most one metadata block (MAX_HELD) is held at a time.
 */
export async function* withoutLocation(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  if (await reader.fill(12)) {
    const format = streamedFormat(reader.peek(12));
    if (format === 'jpeg') yield* jpeg(reader);
    else if (format === 'png') yield* png(reader);
    else if (format === 'webp') yield* webp(reader);
  }
  yield* reader.rest();
}

/** The image formats withoutLocation edits, by their first 12 bytes. */
export function streamedFormat(head: Buffer): 'jpeg' | 'png' | 'webp' | undefined {
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg';
  if (startsWith(head, '\x89PNG\r\n\x1a\n')) return 'png';
  if (startsWith(head, 'RIFF') && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** The segments before the image data: APP1 holds EXIF or XMP. Segments are at most 64 KiB. */
async function* jpeg(reader: ByteReader): AsyncGenerator<Buffer> {
  yield reader.take(2);
  while (await reader.fill(2)) {
    const [mark, code] = reader.peek(2);
    if (mark !== 0xff) return;
    if (code === 0xff) {
      yield reader.take(1);
      continue;
    }
    // Start of scan, end of image: the metadata is behind. The markers without a length: on with the next.
    if (code === 0xda || code === 0xd9) return;
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) {
      yield reader.take(2);
      continue;
    }
    if (!(await reader.fill(4))) return;
    const length = reader.peek(4).readUInt16BE(2);
    if (code !== 0xe1) {
      yield* reader.pass(2 + length);
      continue;
    }
    if (!(await reader.fill(2 + length))) return;
    const segment = reader.take(2 + length);
    await blankMetadata(segment.subarray(4));
    yield segment;
  }
}

/** An APP1 segment's (or a WebP chunk's) payload: EXIF with its GPS emptied, XMP blanked. */
async function blankMetadata(payload: Buffer): Promise<void> {
  if (startsWith(payload, 'Exif\0\0')) await blankExifGps(payload.subarray(6));
  else if (startsWith(payload, 'http://ns.adobe.com/')) payload.fill(0x20, payload.indexOf(0) + 1);
}

/** Chunks up to IEND: eXIf is EXIF; a text chunk may carry XMP or (ImageMagick's) raw EXIF in hex. */
async function* png(reader: ByteReader): AsyncGenerator<Buffer> {
  yield reader.take(8);
  while (await reader.fill(8)) {
    const header = reader.peek(8);
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'IEND') return;
    if (type === 'eXIf' && length <= MAX_HELD) {
      if (!(await reader.fill(12 + length))) return;
      const chunk = reader.take(12 + length);
      await blankExifGps(chunk.subarray(8, 8 + length));
      chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + length)), 8 + length);
      yield chunk;
    } else if (type === 'eXIf' || (['tEXt', 'zTXt', 'iTXt'].includes(type) && (await carriesMetadata(reader, length)))) {
      const renamed = reader.take(8);
      SKIPPED_PNG_CHUNK.copy(renamed, 4);
      yield renamed;
      let crc = crc32(SKIPPED_PNG_CHUNK);
      for await (const piece of reader.pass(length)) {
        const zeros = Buffer.alloc(piece.length);
        crc = crc32(zeros, crc);
        yield zeros;
      }
      if (!(await reader.fill(4))) return;
      reader.take(4);
      const sum = Buffer.alloc(4);
      sum.writeUInt32BE(crc);
      yield sum;
    } else {
      yield* reader.pass(12 + length);
    }
  }
}

/** Whether a PNG text chunk's keyword names XMP or raw EXIF (its first 80 bytes are read for it). */
async function carriesMetadata(reader: ByteReader, length: number): Promise<boolean> {
  const keywordEnd = 8 + Math.min(length, 80);
  await reader.fill(keywordEnd);
  const keyword = reader.peek(keywordEnd).subarray(8).toString('latin1').split('\0')[0];
  return keyword === 'XML:com.adobe.xmp' || keyword.startsWith('Raw profile type');
}

/** RIFF chunks: EXIF (some writers put "Exif\0\0" first) and XMP. */
async function* webp(reader: ByteReader): AsyncGenerator<Buffer> {
  yield reader.take(12);
  while (await reader.fill(8)) {
    const header = reader.peek(8);
    const fourcc = header.toString('latin1', 0, 4);
    const size = header.readUInt32LE(4);
    const padded = size + (size & 1);
    if (fourcc === 'EXIF' && size <= MAX_HELD) {
      if (!(await reader.fill(8 + padded))) return;
      const chunk = reader.take(8 + padded);
      const payload = chunk.subarray(8, 8 + size);
      await blankExifGps(startsWith(payload, 'Exif\0\0') ? payload.subarray(6) : payload);
      yield chunk;
    } else if (fourcc === 'EXIF' || fourcc === 'XMP ') {
      yield reader.take(8);
      for await (const piece of reader.pass(padded)) yield Buffer.alloc(piece.length);
    } else {
      yield* reader.pass(8 + padded);
    }
  }
}
