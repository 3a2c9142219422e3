/** EXIF's tag in a directory that points at the GPS directory (where a camera writes the location). */
const GPS_POINTER_TAG = 0x8825;
/** TIFF's tag that holds XMP (which may repeat the location) as bytes. */
const XMP_TAG = 700;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE). */
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const ENTRY = 12;
/** The most directories followed in a TIFF file (its pages); a loop of "next directory" offsets stops there too. */
const MAX_DIRECTORIES = 64;

/** `length` bytes from `at` in a TIFF structure, fewer at its end. */
export type ReadAt = (at: number, length: number) => Promise<Buffer>;

/** Bytes to overwrite where the location was: zeros (GPS) or spaces (XMP, still text). */
export interface LocatedSpan {
  at: number;
  length: number;
  fill: 0 | 0x20;
}

/**
 * Empties the GPS directory of EXIF data (a TIFF structure, as in a JPEG's APP1, a PNG's eXIf or a WebP's
 * EXIF chunk, or a HEIF's Exif item), in place: its entries and the values they point at become zeros, so
 * the location is gone and every other tag, the orientation above all, is left as it was, at the same
 * offsets. EXIF this cannot read is zeroed whole: what a lenient reader might still find in it is not left behind.
 */
export async function blankExifGps(tiff: Buffer): Promise<void> {
  try {
    for (const span of await locatedSpans(bufferReader(tiff), tiff.length, 1)) tiff.fill(span.fill, span.at, span.at + span.length);
  } catch {
    tiff.fill(0);
  }
}

export const bufferReader =
  (bytes: Buffer): ReadAt =>
  async (at, length) =>
    bytes.subarray(at, at + length);

/**
 * Where a TIFF structure of `size` bytes keeps a location, read where its offsets point (they may point
 * anywhere: a TIFF file's directories often come after its pixels): each directory's GPS directory and
 * the values it points at, and its XMP. Follows up to `directories` directories (a TIFF file's pages).
 * Throws on a structure it cannot read.
 */
export async function locatedSpans(read: ReadAt, size: number, directories = MAX_DIRECTORIES): Promise<LocatedSpan[]> {
  const exactly = async (at: number, length: number) => {
    if (at < 0 || at + length > size) throw new Error('an offset past the end');
    const bytes = await read(at, length);
    if (bytes.length !== length) throw new Error('an offset past the end');
    return bytes;
  };
  const header = await exactly(0, 8);
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw new Error('not TIFF');
  const little = order === 'II';
  const u16 = (bytes: Buffer, at: number) => (little ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (bytes: Buffer, at: number) => (little ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const directory = async (at: number) => {
    const count = u16(await exactly(at, 2), 0);
    const entries = await exactly(at + 2, count * ENTRY + 4);
    return { count, entries, next: u32(entries, count * ENTRY) };
  };
  const valueSpan = (entries: Buffer, entry: number): { at: number; length: number } | undefined => {
    const length = (TYPE_SIZES[u16(entries, entry + 2)] ?? 1) * u32(entries, entry + 4);
    // Values of at most 4 bytes are in the entry itself; longer ones at the offset it gives.
    if (length <= 4) return undefined;
    const at = Math.min(u32(entries, entry + 8), size);
    return { at, length: Math.min(length, size - at) };
  };
  const spans: LocatedSpan[] = [];
  const seen = new Set<number>();
  let at = u32(header, 4);
  while (at !== 0 && seen.size < directories && !seen.has(at)) {
    seen.add(at);
    const { count, entries, next } = await directory(at);
    for (let i = 0; i < count; i += 1) {
      const tag = u16(entries, i * ENTRY);
      if (tag === XMP_TAG) {
        const value = valueSpan(entries, i * ENTRY);
        if (value) spans.push({ ...value, fill: 0x20 });
      }
      if (tag !== GPS_POINTER_TAG) continue;
      const gps = u32(entries, i * ENTRY + 8);
      const inner = await directory(gps);
      for (let j = 0; j < inner.count; j += 1) {
        const value = valueSpan(inner.entries, j * ENTRY);
        if (value) spans.push({ ...value, fill: 0 });
      }
      // No entries left, and the "next directory" offset that follows them reads 0: none.
      spans.push({ at: gps, length: 2 + inner.count * ENTRY + 4, fill: 0 });
    }
    at = next;
  }
  return spans;
}
