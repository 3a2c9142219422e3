import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { withoutLocation } from '../../src/core/files/withoutLocation.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';
import { download, geotagged, hasLatitude, upload, xmpLocated } from './upload.js';

/** The stream cut into pieces of `size` bytes: every header and block boundary falls inside one somewhere. */
async function strippedInPieces(bytes: Buffer, size: number): Promise<Buffer> {
  const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const out: Buffer[] = [];
  for await (const piece of withoutLocation(Readable.from(pieces))) out.push(piece);
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

  it('passes anything else through unchanged', async () => {
    const text = Buffer.from('GPSLatitude 4812345 is only text here, not an image');
    expect((await strippedInPieces(text, 5)).equals(text)).toBe(true);
    expect((await strippedInPieces(Buffer.alloc(0), 1)).length).toBe(0);
  });
});

forEachDialect(
  'an uploaded image’s location',
  (t) => {
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
