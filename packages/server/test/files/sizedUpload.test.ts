import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilesConfig } from '../../src/config/files.js';
import { fileStorageFor } from '../../src/files/storage.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { startS3 } from './s3server.js';
import { download, png, uploadSized } from './upload.js';

const MAX = 8 * 1024 * 1024;

/**
 * files.upload with `size` (docs/reference/files.md "Upload"): held to it, a file of another length
 * refused with nothing kept; on S3 that is the one PutObject path (s3Storage.ts putStreamed), a file
 * above a multipart part's 5 MiB included.
 */
const sizedUploadSuite = (t: () => TestServer) => {
  it('stores a file of the size announced, byte for byte, and refuses one of another length, keeping nothing', async () => {
    const { alice, team } = await chatCast(t());
    const storedKeys = async () => {
      const keys: string[] = [];
      // The team's directory of storage keys (storageKey): every file and rendition of the team's.
      for await (const object of fileStorageFor(t().server.ctx.config).list(`${team.id.replace(':', '_')}/`)) keys.push(object.key);
      return keys.sort();
    };
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    const whole = await uploadSized(t(), alice.token, 'data.bin', bytes, bytes.length);
    expect(whole.status).toBe(200);
    expect(whole.body.file).toMatchObject({ name: 'data.bin', size: bytes.length, mimeType: 'application/octet-stream' });
    expect((await download(t(), alice.token, whole.body.file.url)).bytes.equals(bytes)).toBe(true);
    // An image goes through what takes out its location (the same length), then to storage.
    const image = await png(40, 30);
    const shown = await uploadSized(t(), alice.token, 'plan.png', image, image.length);
    expect(shown.body.file).toMatchObject({ size: image.length, mimeType: 'image/png', width: 40, height: 30 });
    expect((await download(t(), alice.token, shown.body.file.url)).bytes.equals(image)).toBe(true);
    await t().server.ctx.background.settled();

    const before = await storedKeys();
    for (const size of [bytes.length - 1, bytes.length + 1, 0]) {
      const wrong = await uploadSized(t(), alice.token, 'data.bin', bytes, size);
      expect({ status: wrong.status, ...wrong.body }).toMatchObject({ status: 400, error: 'InvalidParameter', parameter: 'size' });
    }
    expect(await uploadSized(t(), alice.token, 'data.bin', bytes, MAX + 1)).toMatchObject({ status: 413, body: { error: 'FileTooLarge', parameter: 'size' } });
    expect(await uploadSized(t(), alice.token, 'data.bin', bytes, 'ten')).toMatchObject({ status: 400, body: { error: 'InvalidParameter', parameter: 'size' } });
    expect((await uploadSized(t(), alice.token, 'data.bin', bytes, 'ten')).body.description).toMatch(/whole number/);
    expect(await storedKeys()).toEqual(before);
    expect((await alice.client.files.getInfo({ file: whole.body.file.id })).file.size).toBe(bytes.length);
  });
};

describe('files.upload with its size announced, on disk', () => {
  forEachDialect('sized uploads on disk', sizedUploadSuite, { ...roomyRateLimits, files: { maxFileBytes: MAX, teamQuotaBytes: 64 * MAX } });
});

describe('files.upload with its size announced, on S3', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  // Filled in once s3rver listens, before the servers start (their beforeAll runs after this one).
  const files: Partial<FilesConfig> = { maxFileBytes: MAX, teamQuotaBytes: 64 * MAX };
  beforeAll(async () => {
    s3 = await startS3();
    files.s3 = s3.config;
  });
  afterAll(() => s3.close());
  forEachDialect('sized uploads on S3', sizedUploadSuite, { ...roomyRateLimits, files });
});
