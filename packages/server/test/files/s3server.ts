import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import type { S3Config } from '../../src/files/storage.js';

/** A real S3-compatible server (s3rver) on 127.0.0.1, port 0, with one bucket; `close` stops it and removes its directory. */
export async function startS3(): Promise<{ config: S3Config; close: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'aviary-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'aviary-files' }] });
  const address = (await server.run()) as AddressInfo;
  return {
    config: {
      endpoint: `http://127.0.0.1:${address.port}`,
      bucket: 'aviary-files',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
