import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from '../../files/fileStorage.js';
import type { FilesTable } from '../../store/schema.js';
import { storageKey } from '../files/presentFile.js';
import type { Row } from './format.js';
import { TransferRefusal } from './refusal.js';

/** The export's folder of file bytes, beside files.jsonl: one file per stored file, and its renditions. */
export const FILE_BYTES_FOLDER = 'files';

type FileRow = Pick<FilesTable, 'id' | 'team_id' | 'renditions'>;
type Rendition = 'thumbnail' | 'preview';

/** A file's bytes (or a rendition's) in the folder: its id with `_` for `:`, as storage keys name it too. */
export const bytesName = (fileId: string, rendition?: Rendition): string => `${fileId.replace(':', '_')}${rendition ? `.${rendition}` : ''}`;

/** The file and, once made (`renditions` 'ready'), its thumbnail and preview. */
const partsOf = (row: FileRow): Array<Rendition | undefined> => (row.renditions === 'ready' ? [undefined, 'thumbnail', 'preview'] : [undefined]);

/** What the export wrote to the folder so far. */
export interface BytesWritten {
  files: number;
  bytes: number;
}

/**
 * Copies one file's bytes from storage into the export's folder, streamed (a file is never held in
 * memory whole). Answers false when storage no longer has them: the file was deleted after the export's
 * view of the store was taken, and is left out of the export with its links (exportTeam.ts).
 */
export async function exportFileBytes(storage: FileStorage, row: FileRow, outDir: string, written: BytesWritten): Promise<boolean> {
  const folder = join(outDir, FILE_BYTES_FOLDER);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const rendition of partsOf(row)) {
    let source;
    try {
      source = await storage.get(storageKey(row, rendition));
    } catch (error) {
      if (rendition === undefined && isMissing(error)) return false;
      throw error;
    }
    const target = join(folder, bytesName(row.id, rendition));
    await pipeline(source, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    written.bytes += statSync(target).size;
  }
  written.files++;
  return true;
}

/**
 * Puts one imported file's bytes from the export's folder into the target's storage (streamed), under
 * the target's key for the file; answers the keys written, for the import to remove if it fails.
 */
export async function importFileBytes(storage: FileStorage, row: Row, fromDir: string, where: string): Promise<string[]> {
  const file = row as unknown as FileRow;
  const keys: string[] = [];
  for (const rendition of partsOf(file)) {
    const path = join(fromDir, FILE_BYTES_FOLDER, bytesName(file.id, rendition));
    if (!existsSync(path)) throw new TransferRefusal('InvalidOption', `${where}: the bytes of file "${file.id}" are missing (${path}); copy the export's ${FILE_BYTES_FOLDER}/ folder whole.`);
    const key = storageKey(file, rendition);
    keys.push(key);
    await storage.put(key, createReadStream(path));
  }
  return keys;
}

/** Whether storage answered that a key is not there (a missing file on disk, NoSuchKey from S3). */
function isMissing(error: unknown): boolean {
  const { code, name } = error as { code?: string; name?: string };
  return code === 'ENOENT' || name === 'NoSuchKey' || name === 'NotFound';
}
