import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { openZip } from './zipReader.js';

/**
 * The files of a Slack export, wherever they are: an unzipped folder, or the export's zip read in place.
 * Paths are relative to the export's root, with `/`.
 */
export interface SlackFiles {
  /** What to call a file in a message: its path on disk, or `export.zip:general/2024-03-01.json`. */
  describe(path: string): string;
  has(path: string): boolean;
  readText(path: string): string;
  /** A file's bytes as they are read (a shared file is never read whole). */
  readStream(path: string): Readable;
  /** The names of the files directly in a folder of the export. */
  list(folder: string): string[];
  close(): void;
}

export function openSlackFiles(path: string): SlackFiles {
  return statSync(path).isDirectory() ? folderFiles(path) : openZip(path);
}

function folderFiles(dir: string): SlackFiles {
  return {
    describe: (path) => join(dir, path),
    has: (path) => existsSync(join(dir, path)),
    readText: (path) => readFileSync(join(dir, path), 'utf8'),
    readStream: (path) => createReadStream(join(dir, path)),
    list: (folder) => (existsSync(join(dir, folder)) ? readdirSync(join(dir, folder)) : []),
    close: () => undefined,
  };
}
