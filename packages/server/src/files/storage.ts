import { join } from 'node:path';
import type { Config } from '../config.js';
import type { S3Config } from '../config/files.js';
import type { ByteRange, FileStorage } from './fileStorage.js';
import { LocalFileStorage } from './localStorage.js';
import { S3FileStorage } from './s3Storage.js';

export type { ByteRange, FileStorage, S3Config };

const storages = new WeakMap<Config, FileStorage>();

/** The storage the configuration names, one per configuration (every request of a process shares its client). */
export function fileStorageFor(config: Config): FileStorage {
  let storage = storages.get(config);
  if (!storage) {
    const { s3 } = config.files;
    storage = s3 ? new S3FileStorage(s3) : new LocalFileStorage(join(config.dataDir, 'files'));
    storages.set(config, storage);
  }
  return storage;
}
