import { closeSync, createReadStream, openSync, readSync, fstatSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { TransferRefusal } from '../refusal.js';

/** A zip's files by path (slackFiles.ts's SlackFiles, of which this is one kind). */
export interface ZipArchive {
  describe(path: string): string;
  has(path: string): boolean;
  readText(path: string): string;
  readStream(path: string): Readable;
  list(folder: string): string[];
  close(): void;
}

interface Entry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * A zip file read in place (Node has no unzip built in, and no zip library is among the server's
 * dependencies): its central directory, then each entry when asked for, stored or deflated (what Slack
 * writes). Zip64 archives (over 4 GiB or 65,535 entries) are refused: unzip those first. When the
 * export's files sit in one folder of the zip, that folder is its root.
 */
export function openZip(file: string): ZipArchive {
  const fd = openSync(file, 'r');
  try {
    const entries = centralDirectory(fd, file);
    const users = [...entries.keys()].filter((name) => name === 'users.json' || name.endsWith('/users.json')).sort((a, b) => a.length - b.length)[0];
    const root = users ? users.slice(0, -'users.json'.length) : '';
    const entry = (path: string) => entries.get(root + path);
    return {
      describe: (path) => `${file}:${root}${path}`,
      has: (path) => entry(path) !== undefined,
      readText: (path) => {
        const found = entry(path);
        if (!found) throw new TransferRefusal('InvalidOption', `${file} holds no ${root}${path}.`);
        return readEntry(fd, file, found).toString('utf8');
      },
      readStream: (path) => {
        const found = entry(path);
        if (!found) throw new TransferRefusal('InvalidOption', `${file} holds no ${root}${path}.`);
        return entryStream(fd, file, found);
      },
      list: (folder) => {
        const prefix = `${root}${folder}/`;
        return [...entries.keys()].filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('/') && name.length > prefix.length).map((name) => name.slice(prefix.length));
      },
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function read(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const got = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, got);
}

function centralDirectory(fd: number, file: string): Map<string, Entry> {
  const size = fstatSync(fd).size;
  const tailLength = Math.min(size, 22 + 65_535);
  const tail = read(fd, size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new TransferRefusal('InvalidOption', `${file} is neither a folder nor a zip file: --slack takes a Slack export (export.zip, or its unzipped folder).`);
  const count = tail.readUInt16LE(at + 10);
  const length = tail.readUInt32LE(at + 12);
  const offset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new TransferRefusal('InvalidOption', `${file} is a Zip64 archive, which is not read in place: unzip it and give --slack the folder.`);
  const directory = read(fd, offset, length);
  const entries = new Map<string, Entry>();
  for (let p = 0, n = 0; n < count; n++) {
    if (directory.readUInt32LE(p) !== CENTRAL) throw new TransferRefusal('InvalidOption', `${file}: its zip directory is damaged.`);
    const nameLength = directory.readUInt16LE(p + 28);
    const name = directory.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    entries.set(name, {
      method: directory.readUInt16LE(p + 10),
      compressedSize: directory.readUInt32LE(p + 20),
      size: directory.readUInt32LE(p + 24),
      localOffset: directory.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
  }
  return entries;
}

/** Where an entry's data begins: after its local header, whose name and extra field may differ from the directory's. */
function dataStart(fd: number, file: string, entry: Entry): number {
  const local = read(fd, entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw new TransferRefusal('InvalidOption', `${file}: an entry of the zip is damaged.`);
  return entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
}

/** An entry's bytes as a stream (a shared file may be large: it is never read whole). */
function entryStream(fd: number, file: string, entry: Entry): Readable {
  if (entry.method !== 0 && entry.method !== 8) throw new TransferRefusal('InvalidOption', `${file}: an entry is compressed with method ${entry.method}; unzip it and give --slack the folder.`);
  const start = dataStart(fd, file, entry);
  if (entry.compressedSize === 0) return Readable.from([]);
  const raw = createReadStream(file, { start, end: start + entry.compressedSize - 1 });
  // pipeline (not pipe): a failed read fails the inflated stream too, instead of leaving it waiting.
  return entry.method === 0 ? raw : pipeline(raw, createInflateRaw(), () => undefined);
}

function readEntry(fd: number, file: string, entry: Entry): Buffer {
  const start = dataStart(fd, file, entry);
  const data = read(fd, start, entry.compressedSize);
  const content = entry.method === 0 ? data : entry.method === 8 ? inflateRawSync(data) : undefined;
  if (content && content.length === entry.size) return content;
  if (content) throw new TransferRefusal('InvalidOption', `${file}: an entry of the zip is damaged (not its recorded size).`);
  throw new TransferRefusal('InvalidOption', `${file}: an entry is compressed with method ${entry.method}; unzip it and give --slack the folder.`);
}
