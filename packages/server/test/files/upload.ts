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
