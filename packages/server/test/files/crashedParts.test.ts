import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilesConfig } from '../../src/config/files.js';
import { sweepOrphanFiles } from '../../src/core/files/fileCommands.js';
import { storageKey } from '../../src/core/files/presentFile.js';
import { partKey } from '../../src/core/files/resumable.js';
import { fileStorageFor } from '../../src/files/storage.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { startS3 } from './s3server.js';
import { sendPart } from './upload.js';

const MAX = 512 * 1024;

/**
 * A process that crashes in the middle of files.uploadPart: the part's bytes are in storage, written
 * as uploadPart writes them (under a part key of the upload), and nothing recorded them. The finish
 * and the orphan sweep still remove them, on disk and on S3, on both dialects.
 */
function crashedPartSuite(files: Partial<FilesConfig>, storedUnder: (t: TestServer, prefix: string) => Promise<string[]>, crashMidWrite?: (t: TestServer, key: string) => Promise<void>) {
  return (t: () => TestServer) => {
    async function uploadWithCrashedPart(size: number) {
      const { alice } = await chatCast(t());
      const { upload } = await alice.client.files.startUpload({ name: 'big.bin', size });
      expect((await sendPart(t(), alice.token, upload.uploadId, 0, Buffer.alloc(1000, 1))).status).toBe(200);
      const row = await t().testStore.store.db.selectFrom('files').selectAll().where('id', '=', upload.uploadId).executeTakeFirstOrThrow();
      // The crash: bytes from offset 1000 written where uploadPart writes them, the process gone before recording them.
      const crashed = partKey(row, randomBytes(8).toString('hex'));
      await fileStorageFor(t().server.ctx.config).put(crashed, Readable.from([Buffer.alloc(500, 2)]));
      if (crashMidWrite) await crashMidWrite(t(), crashed);
      const parts = await storedUnder(t(), `${storageKey(row)}.part-`);
      expect(parts).toHaveLength(crashMidWrite ? 3 : 2);
      expect((await alice.client.files.getUpload({ uploadId: upload.uploadId })).upload.offset).toBe(1000);
      return { alice, upload, row };
    }

    it('sweeps the bytes of a part a crash left unrecorded, with the upload never finished', async () => {
      const { alice, upload, row } = await uploadWithCrashedPart(2000);
      const ctx = t().server.ctx;
      await sweepOrphanFiles({ ...ctx, now: () => Date.now() + 60_000 });
      expect(await storedUnder(t(), `${storageKey(row)}.part-`)).toHaveLength(crashMidWrite ? 3 : 2);
      await sweepOrphanFiles({ ...ctx, now: () => upload.expiresAt + 1 });
      await expectApiError(alice.client.files.getUpload({ uploadId: upload.uploadId }), { error: 'UnknownFile', parameter: 'uploadId' });
      expect(await storedUnder(t(), storageKey(row))).toEqual([]);
    });

    it('removes them at the finish when the upload is resumed and finished after the crash', async () => {
      const { alice, upload, row } = await uploadWithCrashedPart(1500);
      expect((await sendPart(t(), alice.token, upload.uploadId, 1000, Buffer.alloc(500, 3))).status).toBe(200);
      const { file } = await alice.client.files.finishUpload({ uploadId: upload.uploadId });
      expect(file.size).toBe(1500);
      expect(await storedUnder(t(), storageKey(row))).toEqual([storageKey(row)]);
    });
  };
}

/** The keys under `prefix` of the data directory's files, read from the disk. */
const onDisk = async (t: TestServer, prefix: string) => {
  const directory = join(t.testStore.dataDir, 'files', dirname(prefix));
  const names = await readdir(directory).catch(() => [] as string[]);
  return names.map((name) => `${dirname(prefix)}/${name}`).filter((key) => key.startsWith(prefix));
};

describe('parts a crash left behind, on disk', () => {
  forEachDialect(
    'crashed parts on disk',
    crashedPartSuite({ maxFileBytes: MAX, teamQuotaBytes: 4 * MAX }, onDisk, async (t, key) => {
      // Cut off mid-write as well: the temporary name LocalFileStorage writes to before renaming it into place.
      const path = join(t.testStore.dataDir, 'files', `${key}.${randomUUID()}.part`);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, Buffer.alloc(200, 4));
    }),
    { ...roomyRateLimits, files: { maxFileBytes: MAX, teamQuotaBytes: 4 * MAX } },
  );
});

describe('parts a crash left behind, on S3', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let client: S3Client;
  // Filled in once s3rver listens, before the servers start (their beforeAll runs after this one).
  const files: Partial<FilesConfig> = { maxFileBytes: MAX, teamQuotaBytes: 4 * MAX };
  beforeAll(async () => {
    s3 = await startS3();
    files.s3 = s3.config;
    client = new S3Client({ endpoint: s3.config.endpoint, region: s3.config.region, forcePathStyle: true, credentials: { accessKeyId: s3.config.accessKeyId!, secretAccessKey: s3.config.secretAccessKey! } });
  });
  afterAll(async () => {
    client.destroy();
    await s3.close();
  });
  const inBucket = async (_t: TestServer, prefix: string) => {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: prefix }));
    return (page.Contents ?? []).map((object) => object.Key!);
  };
  forEachDialect('crashed parts on S3', crashedPartSuite(files, inBucket), { ...roomyRateLimits, files });
});
