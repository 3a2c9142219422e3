import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from '../../src/files/localStorage.js';
import { S3_PART_BYTES, S3FileStorage } from '../../src/files/s3Storage.js';
import type { FileStorage } from '../../src/files/storage.js';
import { startS3 } from './s3server.js';

/** A stream of `size` bytes, `chunk` at a time, failing after `failAfter` bytes when given. */
function bytes(size: number, failAfter?: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (failAfter !== undefined && sent >= failAfter) return this.destroy(new Error('client went away'));
      if (sent >= size) return this.push(null);
      const length = Math.min(64 * 1024, size - sent);
      this.push(Buffer.alloc(length, sent % 251));
      sent += length;
    },
  });
}

async function sha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const kinds: Array<[string, () => Promise<{ storage: FileStorage; leftovers: () => Promise<string[]>; close: () => Promise<void> }>]> = [
  [
    'disk',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'aviary-files-'));
      return {
        storage: new LocalFileStorage(root),
        leftovers: async () => (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name),
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3 (s3rver)',
    async () => {
      const s3 = await startS3();
      const storage = new S3FileStorage(s3.config);
      return { storage, leftovers: async () => [], close: s3.close };
    },
  ],
];

describe.each(kinds)('file storage on %s', (_name, open) => {
  let world: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    world = await open();
  });
  afterAll(() => world.close());

  it('stores, reads whole and by range, and deletes', async () => {
    await world.storage.put('T1/F1', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(await text(await world.storage.get('T1/F1'))).toBe('hello world');
    expect(await text(await world.storage.get('T1/F1', { start: 6, end: 10 }))).toBe('world');
    await world.storage.delete('T1/F1');
    await expect(world.storage.get('T1/F1')).rejects.toThrow();
    await world.storage.delete('T1/F1');
  });

  it('stores a file of several parts, byte for byte', async () => {
    const size = S3_PART_BYTES * 2 + 12345;
    await world.storage.put('T1/big', bytes(size));
    expect(await sha256(await world.storage.get('T1/big'))).toBe(await sha256(bytes(size)));
    const tail = Buffer.concat(await (await world.storage.get('T1/big', { start: size - 10, end: size - 1 })).toArray());
    expect(tail.length).toBe(10);
    await world.storage.delete('T1/big');
  });

  it('lists the keys under a prefix, and nothing under one no key has', async () => {
    for (const key of ['L1/f_a', 'L1/f_a.part-1', 'L1/f_a.thumbnail', 'L1/f_ab', 'L2/f_a.part-2']) await world.storage.put(key, Readable.from([Buffer.from(key)]));
    const keys = async (prefix: string) => {
      const found: string[] = [];
      for await (const object of world.storage.list(prefix)) found.push(object.key);
      return found.sort();
    };
    expect(await keys('L1/f_a.')).toEqual(['L1/f_a.part-1', 'L1/f_a.thumbnail']);
    expect(await keys('L1/f_a.part-')).toEqual(['L1/f_a.part-1']);
    expect(await keys('L9/f_a.')).toEqual([]);
    for (const key of ['L1/f_a', 'L1/f_a.part-1', 'L1/f_a.thumbnail', 'L1/f_ab', 'L2/f_a.part-2']) await world.storage.delete(key);
  });

  it('stores a file whose size is told beforehand (one PutObject on S3), byte for byte', async () => {
    const size = S3_PART_BYTES * 2 + 12345;
    await world.storage.put('T1/sized', bytes(size), size);
    expect(await sha256(await world.storage.get('T1/sized'))).toBe(await sha256(bytes(size)));
    await world.storage.put('T1/empty', bytes(0), 0);
    expect((await (await world.storage.get('T1/empty')).toArray()).length).toBe(0);
    for (const key of ['T1/sized', 'T1/empty']) await world.storage.delete(key);
  });

  it('leaves nothing when the stream of a size told beforehand fails, halfway or at its last byte', async () => {
    const size = S3_PART_BYTES * 2;
    await expect(world.storage.put('T1/cut', bytes(size, S3_PART_BYTES + 1000), size)).rejects.toThrow('client went away');
    await expect(world.storage.get('T1/cut')).rejects.toThrow();
    // All the bytes told, then a failure (the caller's count finding one too many): S3 took them, the put still fails.
    await expect(world.storage.put('T1/cut', bytes(size + 1, size), size)).rejects.toThrow('client went away');
    expect(await world.leftovers()).toEqual([]);
  });

  it('leaves nothing when the stream fails halfway', async () => {
    await expect(world.storage.put('T1/cut', bytes(S3_PART_BYTES * 2, S3_PART_BYTES + 1000))).rejects.toThrow('client went away');
    await expect(world.storage.get('T1/cut')).rejects.toThrow();
    expect(await world.leftovers()).toEqual([]);
  });
});

it('refuses a key that would leave the files directory', async () => {
  const storage = new LocalFileStorage(join(tmpdir(), 'nowhere'));
  await expect(storage.put('../etc/passwd', Readable.from([]))).rejects.toThrow('not a storage key');
  await expect(storage.get('T1/../../x')).rejects.toThrow('not a storage key');
});

describe('the files settings', () => {
  it('turns S3 on with AVIARY_S3_BUCKET and reads its companions', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const env = { AVIARY_S3_BUCKET: 'b', AVIARY_S3_ENDPOINT: 'http://127.0.0.1:9000', AVIARY_S3_FORCE_PATH_STYLE: '1', AVIARY_S3_ACCESS_KEY_ID: 'k', AVIARY_S3_SECRET_ACCESS_KEY: 's', AVIARY_FILE_MAX_BYTES: '1024' };
    expect(loadConfig({}, env).files).toEqual({
      maxFileBytes: 1024, teamQuotaBytes: 10 * 1024 ** 3, orphanMs: 24 * 3600 * 1000,
      s3: { bucket: 'b', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true },
    });
    expect(loadConfig({}, {}).files.s3).toBeUndefined();
  });

  it('names the setting it cannot use', async () => {
    const { loadConfig } = await import('../../src/config.js');
    expect(() => loadConfig({}, { AVIARY_S3_ENDPOINT: 'http://x' })).toThrow(/AVIARY_S3_ENDPOINT: is set but AVIARY_S3_BUCKET is not/);
    expect(() => loadConfig({}, { AVIARY_S3_BUCKET: 'b', AVIARY_S3_ENDPOINT: 'ftp://x' })).toThrow(/AVIARY_S3_ENDPOINT: expected an http/);
    expect(() => loadConfig({}, { AVIARY_FILE_MAX_BYTES: '10MB' })).toThrow(/AVIARY_FILE_MAX_BYTES: expected a whole number/);
  });
});
