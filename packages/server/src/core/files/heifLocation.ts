import { locatedSpans, bufferReader, type LocatedSpan, type ReadAt } from './exifGps.js';

/** The brands of the HEIF family (HEIC, HEIF, AVIF, their sequences): an ISO media file that holds images as items. */
const HEIF_BRANDS = new Set(['mif1', 'mif2', 'msf1', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'avif', 'avis']);

/** The most bytes of a `meta` box read to find where the metadata is; an image's is a few KB. */
const MAX_META = 1024 * 1024;
/** The most top-level boxes looked through for `meta` (an image has ftyp, meta, mdat, perhaps a few more). */
const MAX_BOXES = 64;

/** Whether a file's first bytes (at least 12, ideally its whole `ftyp` box) are of the HEIF family. */
export function isHeif(head: Buffer): boolean {
  if (head.length < 12 || head.toString('latin1', 4, 8) !== 'ftyp') return false;
  const end = Math.min(head.readUInt32BE(0), head.length);
  for (let at = 8; at + 4 <= end; at += 4) if (HEIF_BRANDS.has(head.toString('latin1', at, at + 4))) return true;
  return false;
}

interface Box {
  type: string;
  /** Where its payload starts and how long it is, in the bytes it was read from. */
  start: number;
  length: number;
}

/**
 * The file's top-level `meta` box (none: undefined), its boxes' headers read one by one (each a read of
 * storage) up to it: at most MAX_BOXES of them, a file of many tiny boxes being no image.
 */
async function metaBox(read: ReadAt, end: number): Promise<Box | undefined> {
  let at = 0;
  for (let seen = 0; at + 8 <= end; seen += 1) {
    if (seen === MAX_BOXES) throw new Error('no meta box among the first boxes');
    const header = await read(at, 16);
    if (header.length < 8) break;
    const size32 = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerLength = 8;
    let boxSize = size32;
    if (size32 === 1) {
      if (header.length < 16) throw new Error('a box cut short');
      boxSize = Number(header.readBigUInt64BE(8));
      headerLength = 16;
    } else if (size32 === 0) boxSize = end - at;
    if (boxSize < headerLength || at + boxSize > end) throw new Error('a box past the end of the file');
    if (type === 'meta') return { type, start: at + headerLength, length: boxSize - headerLength };
    at += boxSize;
  }
  return undefined;
}

const readString = (bytes: Buffer, at: number): [string, number] => {
  const end = bytes.indexOf(0, at);
  if (end < 0) throw new Error('a string without its end');
  return [bytes.toString('latin1', at, end), end + 1];
};

/** The ids of the items that are EXIF ('Exif') or XMP (a 'mime' item of application/rdf+xml), from `iinf`. */
function metadataItems(meta: Buffer, iinf: Box): Map<number, 'exif' | 'xmp'> {
  const items = new Map<number, 'exif' | 'xmp'>();
  const version = meta[iinf.start];
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxesOf(meta, first, iinf.start + iinf.length)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = meta[infe.start];
    if (infeVersion < 2) continue;
    let at = infe.start + 4;
    const id = infeVersion === 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
    at += (infeVersion === 2 ? 2 : 4) + 2;
    const type = meta.toString('latin1', at, at + 4);
    at += 4;
    if (type === 'Exif') items.set(id, 'exif');
    if (type === 'mime') {
      const [, afterName] = readString(meta, at);
      const [contentType] = readString(meta, afterName);
      if (contentType === 'application/rdf+xml') items.set(id, 'xmp');
    }
  }
  return items;
}

function boxesOf(bytes: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    const size = bytes.readUInt32BE(at);
    if (size < 8 || at + size > to) throw new Error('a box past its parent’s end');
    found.push({ type: bytes.toString('latin1', at + 4, at + 8), start: at + 8, length: size - 8 });
    at += size;
  }
  return found;
}

/** Each item's extents as offsets in the file, from `iloc` (construction 0: the file; 1: the `idat` box). */
function itemExtents(meta: Buffer, iloc: Box, idatStart: number | undefined): Map<number, Array<{ at: number; length: number }>> {
  const version = meta[iloc.start];
  let at = iloc.start + 4;
  const sizes = meta.readUInt16BE(at);
  at += 2;
  const [offsetSize, lengthSize, baseOffsetSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15];
  const indexSize = version === 1 || version === 2 ? sizes & 15 : 0;
  const uint = (width: number) => {
    const value = width === 0 ? 0 : width === 2 ? meta.readUInt16BE(at) : width === 4 ? meta.readUInt32BE(at) : width === 8 ? Number(meta.readBigUInt64BE(at)) : NaN;
    if (Number.isNaN(value)) throw new Error('an iloc field of an unknown size');
    at += width;
    return value;
  };
  const idSize = version < 2 ? 2 : 4;
  const count = uint(idSize);
  const extents = new Map<number, Array<{ at: number; length: number }>>();
  for (let i = 0; i < count; i += 1) {
    const id = uint(idSize);
    const construction = version === 1 || version === 2 ? uint(2) & 15 : 0;
    uint(2); // data_reference_index
    const base = uint(baseOffsetSize);
    const extentCount = uint(2);
    const list: Array<{ at: number; length: number }> = [];
    for (let j = 0; j < extentCount; j += 1) {
      uint(indexSize);
      const offset = uint(offsetSize);
      const length = uint(lengthSize);
      if (construction === 0) list.push({ at: base + offset, length });
      else if (construction === 1 && idatStart !== undefined) list.push({ at: idatStart + base + offset, length });
      else throw new Error('an item built from other items');
    }
    extents.set(id, list);
  }
  return extents;
}

/**
 * Where a HEIF-family file (HEIC, HEIF, AVIF) of `size` bytes keeps a location: its EXIF item's GPS
 * directory and values, and its XMP items whole, as offsets in the file (the items lie where `iloc`
 * says, often after the pixels). An EXIF item in pieces, which this does not put together, is zeroed
 * whole (the orientation a HEIF shows is its `irot`, not EXIF's). Throws on a file it cannot read.
 */
export async function heifLocatedSpans(read: ReadAt, size: number): Promise<LocatedSpan[]> {
  const found = await metaBox(read, size);
  if (!found) return [];
  if (found.length > MAX_META) throw new Error('a meta box too large to read');
  const meta = await read(found.start, found.length);
  const children = boxesOf(meta, 4, meta.length);
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  if (!iinf || !iloc) return [];
  const idat = children.find((box) => box.type === 'idat');
  const extents = itemExtents(meta, iloc, idat && found.start + idat.start);
  const spans: LocatedSpan[] = [];
  for (const [id, kind] of metadataItems(meta, iinf)) {
    const pieces = (extents.get(id) ?? []).map((extent) => ({ at: extent.at, length: extent.length === 0 ? size - extent.at : extent.length }));
    if (pieces.some((piece) => piece.at < 0 || piece.at + piece.length > size)) throw new Error('an item past the end');
    if (kind === 'xmp' || pieces.length !== 1) {
      spans.push(...pieces.map((piece) => ({ ...piece, fill: kind === 'xmp' ? (0x20 as const) : (0 as const) })));
      continue;
    }
    // An EXIF item: 4 bytes telling where the TIFF structure starts after them (past "Exif\0\0", if written).
    const [piece] = pieces;
    const item = await read(piece.at, piece.length);
    const tiffStart = 4 + item.readUInt32BE(0);
    try {
      const inItem = await locatedSpans(bufferReader(item.subarray(tiffStart)), item.length - tiffStart, 1);
      spans.push(...inItem.map((span) => ({ ...span, at: piece.at + tiffStart + span.at })));
    } catch {
      spans.push({ ...piece, fill: 0 });
    }
  }
  return spans;
}
