import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pictureSides } from '@aviary/protocol';
import type { FileStorage } from '../../files/fileStorage.js';
import type { FilesTable, PicturesTable } from '../../store/schema.js';
import { storageKey } from '../files/presentFile.js';
import { PICTURE_ID } from '../pictures/pictures.js';
import { pictureKey } from '../pictures/squares.js';
import type { Row } from './format.js';
import { TransferRefusal } from './refusal.js';

/** The export's folder of file bytes, beside files.jsonl: one file per stored file, and its renditions. */
export const FILE_BYTES_FOLDER = 'files';
/** The export's folder of pictures' squares, beside pictures.jsonl: `<id>.<side>.webp`, as storage names them. */
export const PICTURE_BYTES_FOLDER = 'pictures';

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
    written.bytes += await writeOut(source, join(folder, bytesName(row.id, rendition)));
  }
  written.files++;
  return true;
}

/** Copies a picture's squares into the export's folder; false when storage no longer has them (replaced after the export's view was taken). */
export async function exportPictureBytes(storage: FileStorage, picture: Pick<PicturesTable, 'id' | 'team_id'>, outDir: string): Promise<boolean> {
  const folder = join(outDir, PICTURE_BYTES_FOLDER);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const side of pictureSides) {
    let source;
    try {
      source = await storage.get(pictureKey(picture, side));
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await writeOut(source, join(folder, `${picture.id}.${side}.webp`));
  }
  return true;
}

/** Streams bytes to a new file of the export; answers its size. */
async function writeOut(source: NodeJS.ReadableStream, target: string): Promise<number> {
  await pipeline(source, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  return statSync(target).size;
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
    await putIn(storage, storageKey(file, rendition), path, keys);
  }
  return keys;
}

/** Puts one imported picture's squares into the target's storage; answers the keys written. */
export async function importPictureBytes(storage: FileStorage, row: Row, fromDir: string, where: string): Promise<string[]> {
  const picture = row as unknown as PicturesTable;
  // The id names files in the folder: only one the server makes is taken.
  if (!PICTURE_ID.test(picture.id)) throw new TransferRefusal('InvalidOption', `${where}: "${picture.id}" is not a picture's id (26 letters a to z and digits 2 to 7).`);
  const keys: string[] = [];
  for (const side of pictureSides) {
    const path = join(fromDir, PICTURE_BYTES_FOLDER, `${picture.id}.${side}.webp`);
    if (!existsSync(path)) throw new TransferRefusal('InvalidOption', `${where}: the squares of picture "${picture.id}" are missing (${path}); copy the export's ${PICTURE_BYTES_FOLDER}/ folder whole.`);
    await putIn(storage, pictureKey(picture, side), path, keys);
  }
  return keys;
}

/** Streams a file of the export into storage under `key`, noted in `keys` first (so a failed put is cleaned up too). */
async function putIn(storage: FileStorage, key: string, path: string, keys: string[]): Promise<void> {
  keys.push(key);
  await storage.put(key, createReadStream(path));
}

/** Whether storage answered that a key is not there (a missing file on disk, NoSuchKey from S3). */
function isMissing(error: unknown): boolean {
  const { code, name } = error as { code?: string; name?: string };
  return code === 'ENOENT' || name === 'NoSuchKey' || name === 'NotFound';
}
