import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeWithoutLocation } from '../../src/core/files/storeOriginal.js';
import { withoutLocation } from '../../src/core/files/withoutLocation.js';
import { LocalFileStorage } from '../../src/files/localStorage.js';
import { S3FileStorage } from '../../src/files/s3Storage.js';
import type { FileStorage } from '../../src/files/storage.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { download, geotagged, hasLatitude, upload, xmpLocated } from './upload.js';
import { startS3 } from './s3server.js';

const pieces = (bytes: Buffer, size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

/** The stream cut into pieces of `size` bytes: every header and block boundary falls inside one somewhere. */
async function strippedInPieces(bytes: Buffer, size: number): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const piece of withoutLocation(Readable.from(pieces(bytes, size)))) out.push(piece);
  return Buffer.concat(out);
}

describe('withoutLocation', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const) {
    it(`takes the GPS and XMP location out of a ${format}, byte for byte in place, however the bytes arrive`, async () => {
      const original = await geotagged(format);
      expect(hasLatitude(original)).toBe(true);
      expect(await xmpLocated(original)).toBe(true);
      for (const size of [1, 7, 4096, original.length]) {
        const stripped = await strippedInPieces(original, size);
        expect(stripped.length).toBe(original.length);
        expect(hasLatitude(stripped), `pieces of ${size}`).toBe(false);
        expect(await xmpLocated(stripped), `pieces of ${size}`).toBe(false);
        expect(stripped.includes('GeoCam')).toBe(true);
        const { orientation, width, height } = await sharp(stripped).metadata();
        expect({ orientation, width, height }).toEqual({ orientation: 6, width: 64, height: 48 });
        // Still an image every decoder reads, pixels untouched.
        expect((await sharp(stripped).raw().toBuffer()).equals(await sharp(original).raw().toBuffer())).toBe(true);
      }
    });
  }

  it('passes anything else through unchanged, a TIFF and a HEIF too (storeWithoutLocation reads those back)', async () => {
    for (const format of ['tiff', 'heic'] as const) {
      const image = await geotagged(format);
      expect((await strippedInPieces(image, 100)).equals(image)).toBe(true);
    }
    const text = Buffer.from('GPSLatitude 4812345 is only text here, not an image');
    expect((await strippedInPieces(text, 5)).equals(text)).toBe(true);
    expect((await strippedInPieces(Buffer.alloc(0), 1)).length).toBe(0);
  });
});

forEachDialect(
  'an uploaded image’s location',
  (t) => {
    for (const [format, name] of [
      ['tiff', 'scan.tiff'],
      ['heic', 'IMG_0001.HEIC'],
      ['avif', 'holiday.avif'],
    ] as const) {
      it(`is gone from a ${format} original served, uploaded whole or in parts`, async () => {
        const { alice, bob, channelId } = await chatCast(t());
        const original = await geotagged(format);
        const { body } = await upload(t(), alice.token, name, original);
        expect(body.file).toMatchObject({ size: original.length, mimeType: `image/${format}` });
        const { upload: resumable } = await alice.client.files.startUpload({ name, size: original.length });
        const part = await fetch(`${t().url}/v1/files.uploadPart?uploadId=${encodeURIComponent(resumable.uploadId)}&offset=0`, {
          method: 'POST',
          headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
          body: new Uint8Array(original),
        });
        expect(part.status).toBe(200);
        const { file: finished } = await alice.client.files.finishUpload({ uploadId: resumable.uploadId });
        await alice.client.chat.sendMessage({ to: channelId, text: 'where was this?', files: [body.file.id, finished.id] });
        for (const url of [body.file.url, finished.url]) {
          const served = await download(t(), bob.token, url);
          expect(served.status).toBe(200);
          expect(served.bytes.length).toBe(original.length);
          expect(hasLatitude(served.bytes), url).toBe(false);
          expect(await xmpLocated(served.bytes), url).toBe(false);
        }
      });
    }

    it('refuses a TIFF whose metadata cannot be read, rather than keep what it might hold', async () => {
      const { alice } = await chatCast(t());
      const broken = Buffer.concat([Buffer.from('II*\0', 'latin1'), Buffer.from([0xff, 0xff, 0, 0]), Buffer.alloc(100, 7)]);
      const refused = await upload(t(), alice.token, 'broken.tif', broken);
      expect(refused.body).toMatchObject({ error: 'UnsupportedFile', parameter: 'file' });
      const rows = await t().testStore.store.db.selectFrom('files').select('id').where('uploaded_by', '=', alice.id).execute();
      expect(rows).toEqual([]);
    });

    it('is gone from the original served, not only from its thumbnail and preview', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const original = await geotagged('jpeg');
      const { body } = await upload(t(), alice.token, 'holiday.jpg', original);
      expect(body.file).toMatchObject({ size: original.length, mimeType: 'image/jpeg', width: 48, height: 64 });
      await alice.client.chat.sendMessage({ to: channelId, text: 'where was this?', files: [body.file.id] });
      await t().server.ctx.background.settled();
      for (const url of [body.file.url, body.file.thumbnailUrl, body.file.previewUrl]) {
        const served = await download(t(), bob.token, url);
        expect(served.status).toBe(200);
        expect(hasLatitude(served.bytes), url).toBe(false);
        expect(await xmpLocated(served.bytes), url).toBe(false);
      }
      const served = await download(t(), bob.token, body.file.url);
      expect(served.bytes.length).toBe(original.length);
      expect((await sharp(served.bytes).metadata()).orientation).toBe(6);
    });
  },
  roomyRateLimits,
);

/**
 * TIFF and the HEIF family (HEIC, AVIF) keep their metadata where offsets point, after the pixels as
 * often as not: storeWithoutLocation stages the bytes, finds it, and stores them blanked. On disk and S3.
 */
const storages: Array<[string, () => Promise<{ storage: FileStorage; close: () => Promise<void>; leftovers: () => Promise<string[]> }>]> = [
  [
    'disk',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'aviary-located-'));
      const leftovers = async () => (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
      return { storage: new LocalFileStorage(root), leftovers, close: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    's3 (s3rver)',
    async () => {
      const s3 = await startS3();
      const storage = new S3FileStorage(s3.config);
      const leftovers = async () => {
        const keys: string[] = [];
        for await (const object of storage.list()) keys.push(object.key);
        return keys;
      };
      return { storage, leftovers, close: s3.close };
    },
  ],
];

describe.each(storages)('storeWithoutLocation on %s', (_name, open) => {
  let world: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    world = await open();
  });
  afterAll(() => world.close());

  for (const format of ['tiff', 'heic', 'avif', 'jpeg'] as const) {
    it(`takes the GPS and XMP location out of a ${format} original, byte for byte in place, however the bytes arrive`, async () => {
      const original = await geotagged(format);
      expect(hasLatitude(original)).toBe(true);
      expect(await xmpLocated(original)).toBe(true);
      for (const size of [1, 7, 4096, original.length]) {
        const key = `T1/${format}-${size}`;
        await storeWithoutLocation(world.storage, key, Readable.from(pieces(original, size)));
        const stored = Buffer.concat(await (await world.storage.get(key)).toArray());
        expect(stored.length).toBe(original.length);
        expect(hasLatitude(stored), `pieces of ${size}`).toBe(false);
        expect(await xmpLocated(stored), `pieces of ${size}`).toBe(false);
        // The camera stays named (sharp's TIFF writer keeps no EXIF but the orientation, compared below).
        expect(stored.includes('GeoCam')).toBe(format !== 'tiff');
        // Still an image every decoder reads, as tall and wide as it was, pixels untouched.
        const [before, after] = [await sharp(original).metadata(), await sharp(stored).metadata()];
        expect({ width: after.width, height: after.height, orientation: after.orientation }).toEqual({ width: before.width, height: before.height, orientation: before.orientation });
        expect((await sharp(stored).raw().toBuffer()).equals(await sharp(original).raw().toBuffer())).toBe(true);
        await world.storage.delete(key);
      }
      // The staged copy is gone.
      expect(await world.leftovers()).toEqual([]);
    });
  }

  it('refuses a TIFF whose directories point past its end, keeping nothing', async () => {
    const broken = Buffer.concat([Buffer.from('II*\0', 'latin1'), Buffer.from([0xff, 0xff, 0, 0]), Buffer.alloc(100, 7)]);
    await expect(storeWithoutLocation(world.storage, 'T1/broken', Readable.from([broken]))).rejects.toMatchObject({ code: 'UnsupportedFile' });
    await expect(world.storage.get('T1/broken')).rejects.toThrow();
    expect(await world.leftovers()).toEqual([]);
  });
});
