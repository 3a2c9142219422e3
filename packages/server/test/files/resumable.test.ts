import { request as httpRequest } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sweepOrphanFiles } from '../../src/core/files/fileCommands.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { download, geotagged, hasLatitude, png, sendPart } from './upload.js';

const MAX = 512 * 1024;

/**
 * A part sent by hand: the headers announce `declared` bytes and `sent` of them go. With `cut`, the
 * socket is then destroyed (answers undefined); without, the answer is awaited (the server answers a
 * Content-Length it refuses at once, without reading the body).
 */
function rawPart(t: TestServer, credential: string, uploadId: string, offset: number, declared: number, sent: Uint8Array, cut: boolean): Promise<{ status: number; body: any } | undefined> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${t.url}/v1/files.uploadPart?uploadId=${encodeURIComponent(uploadId)}&offset=${offset}`);
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-length': String(declared), 'content-type': 'application/octet-stream' } });
    req.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', (error) => (cut ? resolve(undefined) : reject(error)));
    req.write(sent, () => {
      // Once the bytes are written, the connection drops as a phone's does going into a tunnel.
      if (cut) {
        req.destroy();
        resolve(undefined);
      }
    });
  });
}

/** files.startUpload / uploadPart / getUpload / finishUpload (docs/reference/files.md "Resumable uploads"), on disk, on both dialects. */
forEachDialect(
  'resumable uploads',
  (t) => {
    const storedNames = async () =>
      (await readdir(join(t().testStore.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile()).map((entry) => entry.name);
    const partsOf = async (id: string) => (await storedNames()).filter((name) => name.startsWith(`${id.replace(':', '_')}.part-`));

    it('uploads a file in parts, then finishes it into a file like any other', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const bytes = await png(300, 200);
      const { upload } = await alice.client.files.startUpload({ name: 'chart.png', size: bytes.length });
      expect(upload).toEqual({ uploadId: expect.stringMatching(/^f:/), name: 'chart.png', size: bytes.length, offset: 0, expiresAt: expect.any(Number) });
      const cut = Math.floor(bytes.length / 3);
      expect(await sendPart(t(), alice.token, upload.uploadId, 0, bytes.subarray(0, cut))).toMatchObject({ status: 200, body: { upload: { offset: cut } } });
      expect((await alice.client.files.getUpload({ uploadId: upload.uploadId })).upload.offset).toBe(cut);
      expect(await sendPart(t(), alice.token, upload.uploadId, cut, bytes.subarray(cut))).toMatchObject({ status: 200, body: { upload: { offset: bytes.length } } });
      const { file } = await alice.client.files.finishUpload({ uploadId: upload.uploadId });
      expect(file).toMatchObject({ id: upload.uploadId, name: 'chart.png', size: bytes.length, mimeType: 'image/png', width: 300, height: 200, inline: true });
      expect(await partsOf(file.id)).toEqual([]);
      await alice.client.chat.sendMessage({ to: channelId, text: 'the chart', files: [file.id] });
      const served = await download(t(), bob.token, file.url);
      expect(served.bytes.equals(bytes)).toBe(true);
      // Finished: no upload under way any more.
      await expectApiError(alice.client.files.finishUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile', parameter: 'uploadId' });
    });

    it('takes an image’s location out at the finish, as files.upload does', async () => {
      const { alice } = await chatCast(t());
      const bytes = await geotagged('jpeg');
      expect(hasLatitude(bytes)).toBe(true);
      const { upload } = await alice.client.files.startUpload({ name: 'where.jpg', size: bytes.length });
      // The EXIF is cut in two by the parts.
      await sendPart(t(), alice.token, upload.uploadId, 0, bytes.subarray(0, 100));
      await sendPart(t(), alice.token, upload.uploadId, 100, bytes.subarray(100));
      const { file } = await alice.client.files.finishUpload({ uploadId: upload.uploadId });
      const served = await download(t(), alice.token, file.url);
      expect(served.bytes.length).toBe(bytes.length);
      expect(hasLatitude(served.bytes)).toBe(false);
    });

    it('resumes after a connection dropped mid-part: the offset stays where the last whole part ended', async () => {
      const { alice } = await chatCast(t());
      const bytes = Buffer.alloc(300 * 1024);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31) % 251;
      const { upload } = await alice.client.files.startUpload({ name: 'data.bin', size: bytes.length });
      await sendPart(t(), alice.token, upload.uploadId, 0, bytes.subarray(0, 100 * 1024));
      // The second part announces 200 KiB; 64 KiB arrive, then the connection is gone.
      await rawPart(t(), alice.token, upload.uploadId, 100 * 1024, 200 * 1024, bytes.subarray(100 * 1024, 164 * 1024), true);
      expect((await alice.client.files.getUpload({ uploadId: upload.uploadId })).upload.offset).toBe(100 * 1024);
      // The server drops what it had of the cut part.
      await expect.poll(async () => (await partsOf(upload.uploadId)).length, { message: 'the cut part’s bytes removed', timeout: 30_000, interval: 50 }).toBe(1);
      await expectApiError(alice.client.files.finishUpload({ uploadId: upload.uploadId }), { error: 'InvalidParameter', parameter: 'uploadId', description: /102400 of its 307200 bytes/ });
      expect((await sendPart(t(), alice.token, upload.uploadId, 100 * 1024, bytes.subarray(100 * 1024))).status).toBe(200);
      const { file } = await alice.client.files.finishUpload({ uploadId: upload.uploadId });
      expect((await download(t(), alice.token, file.url)).bytes.equals(bytes)).toBe(true);
    });

    it('refuses a hostile client’s sizes: too large up front, a part past the size, a lying Content-Length, the wrong offset', async () => {
      const { alice } = await chatCast(t());
      await expectApiError(alice.client.files.startUpload({ name: 'huge.bin', size: 5 * 1024 ** 3 }), { error: 'FileTooLarge', status: 413, parameter: 'size' });
      const { upload } = await alice.client.files.startUpload({ name: 'small.bin', size: 1000 });
      // A Content-Length of 5 GB for a 1000-byte upload, with a 1 KB body: refused before the body is read.
      expect(await rawPart(t(), alice.token, upload.uploadId, 0, 5 * 1024 ** 3, Buffer.alloc(1024, 1), false)).toMatchObject({ status: 400, body: { error: 'InvalidRequestData', parameter: 'offset', description: /1000 bytes files.startUpload announced/ } });
      // A chunked body (no Content-Length) past the size: refused at its first byte too many, nothing kept.
      const chunked = await fetch(`${t().url}/v1/files.uploadPart?uploadId=${upload.uploadId}&offset=0`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}` },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array(600));
            controller.enqueue(new Uint8Array(600));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect({ status: chunked.status, body: await chunked.json() }).toMatchObject({ status: 400, body: { error: 'InvalidRequestData', parameter: 'offset' } });
      expect((await alice.client.files.getUpload({ uploadId: upload.uploadId })).upload.offset).toBe(0);
      await expect.poll(async () => (await partsOf(upload.uploadId)).length, { message: 'the refused part’s bytes removed', timeout: 30_000, interval: 50 }).toBe(0);
      expect((await sendPart(t(), alice.token, upload.uploadId, 0, Buffer.alloc(400, 2))).status).toBe(200);
      expect(await sendPart(t(), alice.token, upload.uploadId, 0, Buffer.alloc(400, 2))).toMatchObject({
        status: 400,
        body: { error: 'InvalidParameter', parameter: 'offset', description: /next part starts at offset 400/ },
      });
      expect(await sendPart(t(), alice.token, upload.uploadId, 400, Buffer.alloc(601, 2))).toMatchObject({ status: 400, body: { error: 'InvalidRequestData', parameter: 'offset' } });
      expect(await sendPart(t(), alice.token, 'f:nonsense', 0, Buffer.alloc(1))).toMatchObject({ status: 400, body: { error: 'InvalidParameter', parameter: 'uploadId' } });
      expect(await sendPart(t(), alice.token, upload.uploadId, -1, Buffer.alloc(1))).toMatchObject({ status: 400, body: { error: 'InvalidParameter', parameter: 'offset' } });
      // An offset given twice is named as given twice, not as missing.
      const twice = await fetch(`${t().url}/v1/files.uploadPart?uploadId=${encodeURIComponent(upload.uploadId)}&offset=400&offset=400`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(1),
      });
      expect(await twice.json()).toMatchObject({ error: 'InvalidParameter', parameter: 'offset', description: expect.stringMatching(/was given 2 values/) });
    });

    it('checks the quota when the upload starts, holding the size announced', async () => {
      const { alice } = await chatCast(t());
      // The quota is 4 files of the largest size: four started, none finished, hold all of it.
      for (let i = 0; i < 4; i += 1) expect((await alice.client.files.startUpload({ name: `part${i}.bin`, size: MAX })).upload.size).toBe(MAX);
      await expectApiError(alice.client.files.startUpload({ name: 'more.bin', size: 1 }), { error: 'QuotaExceeded', status: 413, parameter: 'size' });
    });

    it('keeps an upload to its uploader, and refuses at the finish a name its bytes belie, keeping nothing', async () => {
      const { alice, bob } = await chatCast(t());
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const { upload } = await alice.client.files.startUpload({ name: 'cat.png', size: html.length });
      await expectApiError(bob.client.files.getUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile', parameter: 'uploadId' });
      expect(await sendPart(t(), bob.token, upload.uploadId, 0, html)).toMatchObject({ status: 400, body: { error: 'UnknownFile', parameter: 'uploadId' } });
      await expectApiError(bob.client.files.finishUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile', parameter: 'uploadId' });
      await sendPart(t(), alice.token, upload.uploadId, 0, html);
      await expectApiError(alice.client.files.finishUpload({ uploadId: upload.uploadId }), { error: 'UnsupportedFile', status: 415, parameter: 'file' });
      await expectApiError(alice.client.files.getUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile' });
      expect((await storedNames()).filter((name) => name.startsWith(upload.uploadId.replace(':', '_')))).toEqual([]);
    });

    it('sweeps an upload never finished, with its parts, once it is older than the orphan age', async () => {
      const { alice } = await chatCast(t());
      const { upload } = await alice.client.files.startUpload({ name: 'abandoned.bin', size: 2000 });
      await sendPart(t(), alice.token, upload.uploadId, 0, Buffer.alloc(1000, 3));
      expect(await partsOf(upload.uploadId)).toHaveLength(1);
      const ctx = t().server.ctx;
      await sweepOrphanFiles({ ...ctx, now: () => Date.now() + 60_000 });
      expect((await alice.client.files.getUpload({ uploadId: upload.uploadId })).upload.offset).toBe(1000);
      await sweepOrphanFiles({ ...ctx, now: () => upload.expiresAt + 1 });
      await expectApiError(alice.client.files.getUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile', parameter: 'uploadId' });
      expect(await partsOf(upload.uploadId)).toEqual([]);
      const rows = await t().testStore.store.db.selectFrom('file_upload_parts').selectAll().where('file_id', '=', upload.uploadId).execute();
      expect(rows).toEqual([]);
    });
  },
  { ...roomyRateLimits, files: { maxFileBytes: MAX, teamQuotaBytes: 4 * MAX } },
);
