import { Readable } from 'node:stream';
import { ApiError } from '../../errors.js';
import type { FileStorage } from '../../files/fileStorage.js';
import { locatedSpans, type LocatedSpan, type ReadAt } from './exifGps.js';
import { heifLocatedSpans, isHeif } from './heifLocation.js';
import { streamedFormat, withoutLocation } from './withoutLocation.js';

const isTiff = (head: Buffer) => ['II*\0', 'MM\0*'].includes(head.toString('latin1', 0, 4));

/** Bytes looked at to tell the format: a HEIF names its brands in its first box, which this holds. */
const HEAD_BYTES = 64;

/** Where a file's bytes wait while a TIFF's or a HEIF's location is found in them (the sweep removes it after a crash, being under the file's key). */
export const stagedKey = (key: string): string => `${key}.staged`;

/**
 * Stores an uploaded file's bytes under `key` without the location an image's metadata holds
 * (docs/reference/files.md "Images"), same length, nothing re-encoded. JPEG, PNG and WebP keep theirs
 * before their pixels: it is taken out as the bytes stream (withoutLocation). TIFF (whose directories
 * are often written after the pixels) and the HEIF family (HEIC, HEIF, AVIF: their items lie where
 * `iloc` says) may keep it anywhere: the bytes are staged whole, the location found by reading them back
 * where the offsets point, and they are copied to `key` with those bytes blanked. One whose structure
 * cannot be read is refused (UnsupportedFile) rather than stored with what it might hold. Any other file
 * goes to storage as the stream it is, with nothing in between. `size`, when known before the first
 * byte (`announced`, enforced by the stream: ReceivedFile), is passed on to storage: the length stays the same.
 */
export async function storeWithoutLocation(storage: FileStorage, key: string, source: Readable, announced?: number): Promise<void> {
  const { head, body } = await peek(source, HEAD_BYTES);
  if (streamedFormat(head) !== undefined) return storage.put(key, Readable.from(withoutLocation(body)), announced);
  const layout = isTiff(head) ? 'TIFF' : isHeif(head) ? 'HEIF' : undefined;
  if (layout === undefined) return storage.put(key, body, announced);
  const staged = stagedKey(key);
  let size = 0;
  const counted = async function* () {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  };
  await storage.put(staged, Readable.from(counted()), announced);
  try {
    const read: ReadAt = async (at, length) => {
      const end = Math.min(at + length, size);
      if (end <= at) return Buffer.alloc(0);
      return Buffer.concat(await (await storage.get(staged, { start: at, end: end - 1 })).toArray());
    };
    const spans = await (layout === 'TIFF' ? locatedSpans(read, size) : heifLocatedSpans(read, size)).catch(() => {
      throw new ApiError('UnsupportedFile', `This ${layout} image’s metadata could not be read, so its location could not be taken out; send it as JPEG or PNG, or without metadata.`, {
        parameter: 'file',
      });
    });
    await storage.put(key, Readable.from(overwritten(await storage.get(staged), spans)), size);
  } finally {
    await storage.delete(staged).catch(() => undefined);
  }
}

/**
 * The stream's first `n` bytes (fewer if it has fewer), and the stream to read all of it from: the same
 * stream with them put back (unshift), or, when it ended meanwhile, those bytes alone. Throws the
 * stream's error if it failed first (a name its bytes belie, an upload cut off).
 */
async function peek(stream: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < n && !stream.readableEnded && !stream.destroyed) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    await new Promise<void>((resolve) => {
      const settle = () => {
        for (const event of ['readable', 'end', 'error', 'close']) stream.off(event, settle);
        resolve();
      };
      for (const event of ['readable', 'end', 'error', 'close']) stream.on(event, settle);
    });
  }
  if (stream.errored) throw stream.errored;
  const head = Buffer.concat(chunks, length);
  if (stream.readableEnded || stream.destroyed) return { head, body: Readable.from(length > 0 ? [head] : []) };
  if (length > 0) stream.unshift(head);
  return { head, body: stream };
}

/** The stream with the spans' bytes overwritten (zeros, or spaces), wherever the chunks cut them. */
async function* overwritten(source: AsyncIterable<Buffer>, spans: readonly LocatedSpan[]): AsyncGenerator<Buffer> {
  let position = 0;
  for await (const chunk of source) {
    const end = position + chunk.length;
    const touching = spans.filter((span) => span.at < end && span.at + span.length > position);
    if (touching.length === 0) yield chunk;
    else {
      const copy = Buffer.from(chunk);
      for (const span of touching) copy.fill(span.fill, Math.max(span.at - position, 0), Math.min(span.at + span.length - position, chunk.length));
      yield copy;
    }
    position = end;
  }
}
