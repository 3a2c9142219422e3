import type { Readable } from 'node:stream';

/** A byte range, both ends included (as HTTP's Range header counts). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files' bytes live (docs/reference/files.md "Storage"): a directory of the data
 * directory on the embedded default, an S3-compatible bucket when AVIARY_S3_BUCKET is set. Keys are
 * the server's own (`<team id>/<file id>` and its renditions), never a name a client chose.
 */
export interface FileStorage {
  /**
   * Writes the stream's bytes under `key`; when the stream fails, nothing stays under the key and the
   * promise rejects. `size`, when the caller knows it before the first byte (and has made sure the
   * stream fails rather than yield another count), lets S3 take the file as one PutObject.
   */
  put(key: string, body: Readable, size?: number): Promise<void>;
  /** The bytes under `key` (or a range of them). */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes `key`; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  /**
   * The stored keys that start with `prefix` (`<team>/<file id>.`: a file's renditions, its upload's
   * parts, what a crash left half written), whatever recorded them or not: what the sweep removes.
   */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Where the bytes are, for logs and docs: `disk` or `s3`. */
  readonly kind: 'disk' | 's3';
}

/** A stored object as a listing names it (FileStorage.list; the whole bucket for backups). */
export interface StoredObject {
  key: string;
  size: number;
  etag: string | null;
  lastModified: number | null;
}
