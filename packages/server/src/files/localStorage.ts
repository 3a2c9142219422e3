import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import type { ByteRange, FileStorage, StoredObject } from './fileStorage.js';

/** Keys are the server's own, but a key is checked anyway: no `..`, no absolute path, nothing outside the root. */
const KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/**
 * Files under a directory of the data directory: written to a temporary name beside the target and
 * renamed into place once complete, so a reader never meets half a file and a failed upload leaves none.
 */
export class LocalFileStorage implements FileStorage {
  readonly kind = 'disk' as const;

  constructor(private readonly root: string) {}

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.${randomUUID()}.part`;
    try {
      await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), range ? { start: range.start, end: range.end } : {});
    // Opening fails asynchronously: wait for it, so a missing file rejects here instead of mid-response.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Keys are `<team>/<name>`: the names of the team's directory that start as the prefix's last part does. */
  async *list(prefix: string): AsyncGenerator<StoredObject> {
    const slash = prefix.lastIndexOf('/');
    const directory = prefix.slice(0, slash + 1);
    const start = prefix.slice(slash + 1);
    const names = await readdir(directory === '' ? this.root : this.pathOf(directory.slice(0, -1))).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const name of names.filter((candidate) => candidate.startsWith(start)).sort()) {
      const key = `${directory}${name}`;
      const stats = await stat(this.pathOf(key)).catch(() => undefined);
      if (stats?.isFile()) yield { key, size: stats.size, etag: null, lastModified: stats.mtimeMs };
    }
  }

  private pathOf(key: string): string {
    if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) throw new Error(`not a storage key: ${key.slice(0, 80)}`);
    return join(this.root, key);
  }
}
