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

/** An image as a phone writes it: rotated by EXIF (orientation 6), the camera named, where it was taken in GPS and in XMP. */
export async function geotagged(format: 'jpeg' | 'png' | 'webp'): Promise<Buffer> {
  const image = sharp({ create: { width: 64, height: 48, channels: 3, background: '#c84' } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'GeoCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: LATITUDE, GPSLongitudeRef: 'E', GPSLongitude: '233333/100000 0/1 0/1' } })
    .withXmp(XMP_LOCATION);
  return image[format]().toBuffer();
}
