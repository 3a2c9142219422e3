import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { expect, it, vi } from 'vitest';
import { sweepOrphanFiles } from '../../src/core/files/fileCommands.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { download, upload } from './upload.js';

/** A PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
  return Buffer.concat([length, Buffer.from(type), data, crc]);
}

/** The header of a 30,000 x 30,000 PNG (900 megapixels) in a few dozen bytes: what a decompression bomb announces. */
function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), chunk('IEND', Buffer.alloc(0))]);
}

/** Sends raw HTTP and answers what came back before the server closed the connection. */
function rawRequest(url: string, head: string, body: Buffer): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), body])));
    let answer = '';
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

forEachDialect(
  'hostile files',
  (t) => {
    const assertNeverInline = (served: Awaited<ReturnType<typeof download>>) => {
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    };

    it('serves an SVG with a script only as a download, never as an image or a page', async () => {
      const { alice } = await chatCast(t());
      const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/v1/users.getInfo")</script><circle r="5"/></svg>';
      const { status, body } = await upload(t(), alice.token, 'logo.svg', svg);
      expect(status).toBe(200);
      expect(body.file).toMatchObject({ mimeType: 'application/octet-stream', inline: false });
      expect(body.file.thumbnailUrl).toBeUndefined();
      assertNeverInline(await download(t(), alice.token, body.file.url));
    });

    it('serves a GIF that is also a script (a polyglot) only as a download', async () => {
      const { alice } = await chatCast(t());
      const polyglot = 'GIF89a/*\x00\x00\x00\x00*/=1;alert(document.cookie)//<html><script>alert(1)</script>';
      const { body } = await upload(t(), alice.token, 'funny.gif', polyglot);
      expect(body.file).toMatchObject({ mimeType: 'image/gif', inline: false });
      expect(body.file.thumbnailUrl).toBeUndefined();
      assertNeverInline(await download(t(), alice.token, body.file.url));
    });

    it('never decodes a decompression bomb: not shown inline, no thumbnail, only a download', async () => {
      const { alice } = await chatCast(t());
      const { body } = await upload(t(), alice.token, 'bomb.png', bombPng());
      expect(body.file).toMatchObject({ mimeType: 'image/png', inline: false, width: 30_000, height: 30_000 });
      expect(body.file.thumbnailUrl).toBeUndefined();
      await t().server.ctx.background.settled();
      const row = await t().testStore.store.db.selectFrom('files').select('renditions').where('id', '=', body.file.id).executeTakeFirstOrThrow();
      expect(row.renditions).toBe('none');
      assertNeverInline(await download(t(), alice.token, body.file.url));
      expect((await download(t(), alice.token, `${body.file.url}?size=thumbnail`)).status).toBe(400);
    });

    it('makes a thumbnail and a preview turned as the camera meant, without the photo’s location', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      // 60 x 40 as stored, EXIF orientation 6 (turned a quarter): 40 x 60 as shown; with a GPS position.
      const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c33' } })
        .jpeg()
        .withExif({ IFD0: { Make: 'Camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' } })
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const original = await sharp(photo).metadata();
      expect({ orientation: original.orientation, camera: original.exif?.toString('latin1').includes('Camera') }).toEqual({ orientation: 6, camera: true });
      const { body } = await upload(t(), alice.token, 'paris.jpg', photo);
      expect(body.file).toMatchObject({ mimeType: 'image/jpeg', inline: true, width: 40, height: 60 });
      await alice.client.chat.sendMessage({ to: channelId, text: 'view', files: [body.file.id] });
      await t().server.ctx.background.settled();
      for (const size of ['thumbnail', 'preview']) {
        const served = await download(t(), bob.token, `${body.file.url}?size=${size}`);
        expect(served.headers.get('content-type')).toBe('image/webp');
        const metadata = await sharp(served.bytes).metadata();
        expect({ width: metadata.width, height: metadata.height, exif: metadata.exif, orientation: metadata.orientation }).toEqual({ width: 40, height: 60, exif: undefined, orientation: undefined });
      }
    });

    it('answers a 5 GB Content-Length with a 1 KB body at once, and closes the connection', async () => {
      const { alice } = await chatCast(t());
      const body = Buffer.alloc(1024, 'a');
      const head = `POST /v1/files.upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: multipart/form-data; boundary=X\r\nContent-Length: ${5 * 1024 ** 3}\r\n\r\n`;
      const answer = await rawRequest(t().url, head, body);
      expect(answer).toMatch(/^HTTP\/1.1 413/);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toMatch(/"error":"FileTooLarge"/);
    });

    it('keeps memory bounded under many parallel cut-off uploads, and leaves no orphan after the sweep', async () => {
      const { alice } = await chatCast(t());
      const db = t().testStore.store.db;
      const count = async () => (await db.selectFrom('files').select('id').where('uploaded_by', '=', alice.id).execute()).length;
      const uploads = 100;
      const before = process.memoryUsage().rss;
      const part = Buffer.alloc(64 * 1024, 'z');
      const head = `POST /v1/files.upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: multipart/form-data; boundary=X\r\nContent-Length: ${1024 * 1024}\r\n\r\n--X\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`;
      const { port } = new URL(t().url);
      const sockets = Array.from({ length: uploads }, () => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), part])));
        socket.on('error', () => undefined);
        return socket;
      });
      // Every upload under way on the server (its row written, its bytes streaming), none finished.
      await vi.waitFor(async () => expect(await count()).toBe(uploads), { timeout: 30_000, interval: 50 });
      expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
      for (const socket of sockets) socket.destroy();
      // Each cut-off upload removes its own row and bytes as its stream fails.
      await vi.waitFor(async () => expect(await count()).toBe(0), { timeout: 30_000, interval: 50 });
      const ctx = t().server.ctx;
      await sweepOrphanFiles({ ...ctx, now: () => Date.now() + ctx.config.files.orphanMs + 1 });
      expect(await count()).toBe(0);
      const leftovers = (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true }).catch(() => [])).filter((name) => String(name).endsWith('.part'));
      expect(leftovers).toEqual([]);
    });

    it('cuts a name past 255 characters between whole characters, keeping its extension', async () => {
      const { alice } = await chatCast(t());
      // 250 letters, then an emoji whose second half would be the 252nd unit, past the 251 left beside the extension: it goes whole.
      const { body } = await upload(t(), alice.token, `${'a'.repeat(250)}😀😀.txt`, 'x');
      expect(body.file.name).toBe(`${'a'.repeat(250)}.txt`);
      const stored = await t().testStore.store.db.selectFrom('files').select('name').where('id', '=', body.file.id).executeTakeFirstOrThrow();
      expect(stored.name).toBe(body.file.name);
    });

    it('refuses a file link to someone who left the channel', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { body } = await upload(t(), alice.token, 'secret.txt', 'members only');
      await alice.client.chat.sendMessage({ to: channelId, text: 'for members', files: [body.file.id] });
      expect((await download(t(), bob.token, body.file.url)).status).toBe(200);
      await bob.client.channels.removeMembers({ channelId, members: [bob.id] });
      const refused = await download(t(), bob.token, body.file.url);
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'UnknownFile', parameter: 'id' });
    });
  },
  { ...roomyRateLimits, files: { maxFileBytes: 10 * 1024 * 1024 } },
);
