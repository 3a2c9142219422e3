import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import type { TestServer } from '../helpers/server.js';

/** POST /v1/files.upload as a browser or the SDK would: one part named "file". */
export async function upload(t: TestServer, credential: string, name: string, bytes: Uint8Array | string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  const response = await fetch(`${t.url}/v1/files.upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${credential}`, ...headers } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** GET /files/:id (with `?size=`), as a bearer of `credential`. */
export async function download(t: TestServer, credential: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${credential}`, ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, json: () => JSON.parse(bytes.toString()) };
}

/** A real PNG of `width` x `height`. */
export const png = (width = 40, height = 30): Promise<Buffer> => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer();

/** The same upload without Content-Length (a chunked body), so that only the server's count can stop it. */
export async function uploadChunked(t: TestServer, credential: string, name: string, bytes: Uint8Array) {
  const response = await fetch(`${t.url}/v1/files.upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'multipart/form-data; boundary=X' },
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`--X\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`));
        controller.enqueue(bytes);
        controller.enqueue(new TextEncoder().encode('\r\n--X--\r\n'));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as any };
}

/** A latitude of 48.12345°: its numerator, 4812345, is what the tests look for in the bytes (either byte order). */
const LATITUDE = '4812345/100000 0/1 0/1';
const latitudeBytes = [Buffer.from([0x00, 0x49, 0x6e, 0x39]), Buffer.from([0x39, 0x6e, 0x49, 0x00])];
export const hasLatitude = (bytes: Buffer) => latitudeBytes.some((pattern) => bytes.includes(pattern));
/** Whether the XMP a decoder reads (a PNG's may be compressed) names a location. */
export const xmpLocated = async (bytes: Buffer) => ((await sharp(bytes).metadata()).xmp?.toString() ?? '').includes('GPSLatitude');
const XMP_LOCATION = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,7.407N"/></rdf:RDF></x:xmpmeta>';

/** The formats whose originals keep no location: those shown inline and those made thumbnails of. */
export type GeotaggedFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'heic' | 'tiff';

/**
 * An image as a phone writes it: rotated by EXIF (orientation 6), the camera named, where it was taken
 * in GPS and in XMP. sharp writes JPEG, PNG, WebP and AVIF so. Its HEIF encoder has no HEVC, so the
 * HEIC is the AVIF with the brands of an iPhone's HEIC (the same boxes and items: what is read for the
 * location); its TIFF writer drops EXIF, so the TIFF gets a GPS directory of its own (tiffWithGps).
 */
export async function geotagged(format: GeotaggedFormat): Promise<Buffer> {
  const image = sharp({ create: { width: 64, height: 48, channels: 3, background: '#c84' } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'GeoCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: LATITUDE, GPSLongitudeRef: 'E', GPSLongitude: '233333/100000 0/1 0/1' } })
    .withXmp(XMP_LOCATION);
  if (format === 'tiff') return tiffWithGps(await image.tiff().toBuffer());
  if (format === 'heic') return asHeic(await image.avif().toBuffer());
  return image[format]().toBuffer();
}

/** An AVIF's `ftyp` rewritten as an iPhone's HEIC's: major brand heic, compatible mif1 and heic (same length). */
function asHeic(avif: Buffer): Buffer {
  const heic = Buffer.from(avif);
  const end = heic.readUInt32BE(0);
  heic.write('heic', 8, 'latin1');
  for (let at = 16; at + 4 <= end; at += 4) heic.write(at === 16 ? 'mif1' : 'heic', at, 'latin1');
  return heic;
}

/**
 * A little-endian TIFF (as sharp writes it, XMP included) given, as a camera's has, a GPS directory:
 * its first directory copied to the end with a GPSInfo entry, the GPS directory and its rationals after it.
 */
function tiffWithGps(tiff: Buffer): Buffer {
  if (tiff.toString('latin1', 0, 2) !== 'II') throw new Error('expected a little-endian TIFF');
  const first = tiff.readUInt32LE(4);
  const count = tiff.readUInt16LE(first);
  const entries = Array.from({ length: count }, (_, i) => tiff.subarray(first + 2 + i * 12, first + 14 + i * 12));
  const directoryAt = tiff.length + (tiff.length & 1);
  const gpsAt = directoryAt + 2 + (count + 1) * 12 + 4;
  const gpsCount = 4;
  const valuesAt = gpsAt + 2 + gpsCount * 12 + 4;
  const pointer = Buffer.alloc(12);
  pointer.writeUInt16LE(0x8825, 0);
  pointer.writeUInt16LE(4, 2);
  pointer.writeUInt32LE(1, 4);
  pointer.writeUInt32LE(gpsAt, 8);
  const sorted = [...entries, pointer].sort((a, b) => a.readUInt16LE(0) - b.readUInt16LE(0));
  const directory = Buffer.alloc(2 + sorted.length * 12 + 4);
  directory.writeUInt16LE(sorted.length, 0);
  sorted.forEach((entry, i) => entry.copy(directory, 2 + i * 12));
  const rationals = (numbers: number[]) => {
    const bytes = Buffer.alloc(numbers.length * 4);
    numbers.forEach((n, i) => bytes.writeUInt32LE(n, i * 4));
    return bytes;
  };
  const latitude = rationals([4812345, 100000, 0, 1, 0, 1]);
  const longitude = rationals([233333, 100000, 0, 1, 0, 1]);
  const gps = Buffer.alloc(2 + gpsCount * 12 + 4);
  gps.writeUInt16LE(gpsCount, 0);
  const field = (i: number, tag: number, type: number, n: number, value: (entry: Buffer) => void) => {
    const at = 2 + i * 12;
    gps.writeUInt16LE(tag, at);
    gps.writeUInt16LE(type, at + 2);
    gps.writeUInt32LE(n, at + 4);
    value(gps.subarray(at + 8, at + 12));
  };
  field(0, 1, 2, 2, (entry) => entry.write('N\0', 'latin1'));
  field(1, 2, 5, 3, (entry) => entry.writeUInt32LE(valuesAt));
  field(2, 3, 2, 2, (entry) => entry.write('E\0', 'latin1'));
  field(3, 4, 5, 3, (entry) => entry.writeUInt32LE(valuesAt + latitude.length));
  const out = Buffer.concat([tiff, Buffer.alloc(directoryAt - tiff.length), directory, gps, latitude, longitude]);
  out.writeUInt32LE(directoryAt, 4);
  return out;
}

/** POST /v1/files.uploadPart: the part as the raw body. */
export async function sendPart(t: TestServer, credential: string, uploadId: string, offset: number, bytes: Uint8Array) {
  const response = await fetch(`${t.url}/v1/files.uploadPart?uploadId=${encodeURIComponent(uploadId)}&offset=${offset}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** files.upload with the file's `size` announced in the query string (any text, to try what the server refuses). */
export async function uploadSized(t: TestServer, credential: string, name: string, bytes: Uint8Array, size: number | string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const response = await fetch(`${t.url}/v1/files.upload?size=${encodeURIComponent(size)}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${credential}` } });
  return { status: response.status, body: (await response.json()) as any };
}

/**
 * An upload whose body stops after the part's headers and first half of the file until `finish()`: the
 * server has what it needs to begin (Content-Length, the part) and waits for the rest. `answer` settles
 * when the server answers, which it may do before the rest (a refusal).
 */
export function heldUpload(t: TestServer, credential: string, name: string, bytes: Uint8Array) {
  const head = Buffer.from(`--X\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`);
  const tail = Buffer.from('\r\n--X--\r\n');
  const half = Math.floor(bytes.length / 2);
  const { hostname, port } = new URL(t.url);
  const request = httpRequest({
    host: hostname,
    port,
    method: 'POST',
    path: '/v1/files.upload',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'multipart/form-data; boundary=X', 'content-length': head.length + bytes.length + tail.length },
  });
  // Writing after a refusal finds the connection closed: the answer is what counts.
  request.on('error', () => undefined);
  const answer = new Promise<{ status: number; body: any }>((resolve) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
  });
  request.write(Buffer.concat([head, bytes.subarray(0, half)]));
  return {
    answer,
    finish: () => {
      request.end(Buffer.concat([bytes.subarray(half), tail]));
      return answer;
    },
  };
}
