/** EXIF's tag in the first directory that points at the GPS directory (where a camera writes the location). */
const GPS_POINTER_TAG = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE). */
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];
const ENTRY = 12;

/**
 * Empties the GPS directory of EXIF data (a TIFF structure, as in a JPEG's APP1, a PNG's eXIf or a WebP's
 * EXIF chunk), in place: its entries and the values they point at become zeros, so the location is gone
 * and every other tag, the orientation above all, is left as it was, at the same offsets. EXIF this
 * cannot read is zeroed whole: what a lenient reader might still find in it is not left behind.
 */
export function blankExifGps(tiff: Buffer): void {
  try {
    blankGpsDirectory(tiff);
  } catch {
    tiff.fill(0);
  }
}

function blankGpsDirectory(tiff: Buffer): void {
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw new Error('not TIFF');
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const first = u32(4);
  const entries = u16(first);
  for (let i = 0; i < entries; i += 1) {
    const entry = first + 2 + i * ENTRY;
    if (u16(entry) !== GPS_POINTER_TAG) continue;
    const gps = u32(entry + 8);
    const count = u16(gps);
    if (gps + 2 + count * ENTRY > tiff.length) throw new Error('GPS directory past the end');
    for (let j = 0; j < count; j += 1) {
      const field = gps + 2 + j * ENTRY;
      const bytes = (TYPE_SIZES[u16(field + 2)] ?? 1) * u32(field + 4);
      // Values of more than 4 bytes lie elsewhere, at the offset the entry gives.
      if (bytes > 4) {
        const at = u32(field + 8);
        tiff.fill(0, Math.min(at, tiff.length), Math.min(at + bytes, tiff.length));
      }
    }
    // No entries left, and the "next directory" offset that follows them reads 0: none.
    tiff.fill(0, gps, gps + 2 + count * ENTRY + 4);
  }
}
