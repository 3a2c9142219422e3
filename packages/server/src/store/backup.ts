// Backups of a store while a server runs on it, and their restore into an empty store (docs/operations.md,
// "Backups"). SQLite: the online backup API (a consistent copy page by page, WAL included, while writers
// go on), with the data directory's other files inside the copy, uploaded files included. PostgreSQL:
// `pg_dump` in its custom format, and `pg_restore`; the uploaded files of the data directory, or the
// listing of the bucket that holds them, in a companion file beside the dump (FILE.files).
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, copyFileSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import SQLite from 'better-sqlite3';
import { ensurePrivateDataDir, sqliteFile } from './store.js';

/** The table of a backup that carries the data directory's other files, in parts; restore removes it. */
const FILES_TABLE = 'aviary_backup_files';
/** The table of a backup that lists the objects of the files' bucket (S3 storage), as they stood at the backup. */
const OBJECTS_TABLE = 'aviary_backup_objects';
/** Bytes per row of FILES_TABLE: a file of any size is copied a part at a time, never held whole. */
const PART_BYTES = 4 * 1024 * 1024;
/** The data directory's folder of uploaded files (files/localStorage.ts), and the name of an upload under way there. */
const UPLOADS = 'files';
const UNFINISHED_UPLOAD = /\.[0-9a-f-]{36}\.part$/;
/** Beside a PostgreSQL dump: the uploaded files and the bucket's listing (a SQLite database of the two tables above). */
export const companionOf = (dump: string): string => `${dump}.files`;

/** An object of the files' bucket, as its listing gives it. */
export interface ListedObject {
  key: string;
  size: number;
  etag: string | null;
  lastModified: number | null;
}

/** Where the files' bytes are, beside the store: nothing more to carry (local storage) or a bucket to list. */
export interface BackupFiles {
  /** The bucket's objects when files are kept in S3 (their bytes are the bucket's to keep: docs/operations.md). */
  objects?: AsyncIterable<ListedObject>;
}

export type BackupKind = 'sqlite' | 'postgres';

/** Something about the backup or its target that the person must change; the message says what. */
export class BackupRefusal extends Error {}

export interface BackupSummary {
  kind: BackupKind;
  file: string;
  /** The data directory's files carried with a SQLite backup (their paths inside it), uploaded files aside. */
  files: string[];
  /** The uploaded files carried (the data directory's `files/` folder, on either dialect): how many, and their bytes. */
  uploads: { count: number; bytes: number };
  /** The bucket's objects listed (S3 storage), else null; after a restore, how many of them the bucket lacks. */
  objects: { listed: number; missing?: number } | null;
}

/** What a backup file is, by its first bytes: a SQLite database, or pg_dump's custom format. */
export function backupKind(file: string): BackupKind | undefined {
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  if (head.subarray(0, 5).toString('latin1') === 'PGDMP') return 'postgres';
  return undefined;
}

/** A consistent copy of the SQLite store under `dataDir`, while servers may be writing to it. */
export async function backupSqlite(dataDir: string, out: string, storage: BackupFiles = {}): Promise<BackupSummary> {
  const database = sqliteFile(dataDir);
  if (!existsSync(database)) throw new BackupRefusal(`There is no SQLite store in ${dataDir} (no ${database}).`);
  refuseExisting(out);
  refuseInside(dataDir, out);
  const partial = `${out}.partial`;
  const removePartial = () => ['', '-wal', '-shm', '-journal'].forEach((suffix) => rmSync(`${partial}${suffix}`, { force: true }));
  removePartial();
  // Private before a byte is copied into it: SQLite gives its journal and WAL the database file's mode.
  closeSync(openSync(partial, 'w', 0o600));
  const source = new SQLite(database, { readonly: true, fileMustExist: true });
  try {
    await source.backup(partial);
  } finally {
    source.close();
  }
  const copy = new SQLite(partial);
  let summary: BackupSummary;
  try {
    summary = { kind: 'sqlite', file: out, ...(await writeFilesPart(copy, dataDir, storage, true)) };
  } catch (error) {
    copy.close();
    removePartial();
    throw error;
  } finally {
    if (copy.open) copy.close();
  }
  renameSync(partial, out);
  return summary;
}

/**
 * Writes into `db` the data directory's files (all of them with `others`, else only the uploaded files'
 * folder), a part at a time, and the bucket's listing when there is one.
 */
async function writeFilesPart(db: SQLite.Database, dataDir: string, storage: BackupFiles, others: boolean): Promise<Omit<BackupSummary, 'kind' | 'file'>> {
  db.exec(`create table ${FILES_TABLE} (path text not null, part integer not null, mode integer not null, content blob not null, primary key (path, part))`);
  const files = others ? dataFiles(dataDir).filter((path) => !path.startsWith(`${UPLOADS}/`)) : [];
  const uploads = existsSync(join(dataDir, UPLOADS)) ? dataFiles(dataDir, UPLOADS).filter((path) => !UNFINISHED_UPLOAD.test(path)) : [];
  const insert = db.prepare(`insert into ${FILES_TABLE} (path, part, mode, content) values (?, ?, ?, ?)`);
  let bytes = 0;
  for (const path of [...files, ...uploads]) {
    const copied = copyInParts(join(dataDir, path), (part, content, mode) => insert.run(path, part, mode, content));
    if (path.startsWith(`${UPLOADS}/`)) bytes += copied;
  }
  let objects: BackupSummary['objects'] = null;
  if (storage.objects) {
    db.exec(`create table ${OBJECTS_TABLE} (key text primary key, size integer not null, etag text, last_modified integer)`);
    const list = db.prepare(`insert into ${OBJECTS_TABLE} (key, size, etag, last_modified) values (?, ?, ?, ?)`);
    let listed = 0;
    for await (const object of storage.objects) {
      list.run(object.key, object.size, object.etag, object.lastModified);
      listed++;
    }
    objects = { listed };
  }
  return { files, uploads: { count: uploads.length, bytes }, objects };
}

/**
 * Reads a file a part at a time into `write`; answers its size. A file deleted meanwhile (an upload
 * removed after the store's copy was taken) is skipped: the copy of the store no longer needs it either,
 * or names a file it will not find, as after its deletion.
 */
function copyInParts(path: string, write: (part: number, content: Buffer, mode: number) => void): number {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const mode = lstatSync(path).mode & 0o777;
    const buffer = Buffer.alloc(PART_BYTES);
    let total = 0;
    for (let part = 0; ; part++) {
      const read = readSync(fd, buffer, 0, PART_BYTES, null);
      if (read === 0 && part > 0) return total;
      write(part, buffer.subarray(0, read), mode);
      total += read;
      if (read < PART_BYTES) return total;
    }
  } finally {
    closeSync(fd);
  }
}

/** The backup into `dataDir`, which must hold no store yet; the data directory's files come back too. */
export function restoreSqlite(file: string, dataDir: string): BackupSummary {
  const database = sqliteFile(dataDir);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new BackupRefusal(`${dataDir} is not empty: restore into a new data directory (the store there would be replaced).`);
  }
  ensurePrivateDataDir(dataDir);
  const partial = `${database}.partial`;
  copyFileSync(file, partial);
  chmodSync(partial, 0o600);
  const restored = new SQLite(partial);
  const files: string[] = [];
  let uploads: BackupSummary['uploads'] = { count: 0, bytes: 0 };
  let objects: BackupSummary['objects'] = null;
  try {
    const hasFiles = restored.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(FILES_TABLE);
    if (!hasFiles) throw new BackupRefusal(`${file} is a SQLite database but not an Aviary backup (no ${FILES_TABLE} table).`);
    const written = writeFilesBack(restored, dataDir);
    files.push(...written.files);
    uploads = written.uploads;
    objects = listedCount(restored);
    restored.exec(`drop table ${FILES_TABLE}`);
    restored.exec(`drop table if exists ${OBJECTS_TABLE}`);
    // The pages the files took are given back: the store is the size it was.
    restored.exec('vacuum');
    // The store's own mode: SQLite keeps the log in a -wal file beside it.
    restored.pragma('journal_mode = WAL');
  } catch (error) {
    restored.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  restored.close();
  renameSync(partial, database);
  return { kind: 'sqlite', file, files, uploads, objects };
}

/** Writes the files of a backup's FILES_TABLE back into the data directory, part after part (read as they are used, never all at once). */
function writeFilesBack(db: SQLite.Database, dataDir: string): Pick<BackupSummary, 'files' | 'uploads'> {
  const files: string[] = [];
  const uploads = { count: 0, bytes: 0 };
  // A backup of an earlier version has one row per file, without `part`.
  const parted = (db.prepare(`select name from pragma_table_info('${FILES_TABLE}')`).all() as Array<{ name: string }>).some((column) => column.name === 'part');
  const rows = db.prepare(`select path, ${parted ? 'part' : '0 as part'}, mode, content from ${FILES_TABLE} order by path, part`).iterate() as Iterable<{ path: string; part: number; mode: number; content: Buffer }>;
  let fd: number | undefined;
  try {
    for (const row of rows) {
      if (row.part === 0) {
        if (fd !== undefined) closeSync(fd);
        const target = insideDataDir(dataDir, row.path);
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
        fd = openSync(target, 'wx', row.mode & 0o777);
        if (row.path.startsWith(`${UPLOADS}/`)) uploads.count++;
        else files.push(row.path);
      }
      writeSync(fd!, row.content);
      if (row.path.startsWith(`${UPLOADS}/`)) uploads.bytes += row.content.length;
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return { files, uploads };
}

const listedCount = (db: SQLite.Database): BackupSummary['objects'] =>
  db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(OBJECTS_TABLE)
    ? { listed: (db.prepare(`select count(*) as count from ${OBJECTS_TABLE}`).get() as { count: number }).count }
    : null;

/** The objects a backup lists (its own tables for SQLite, its companion for PostgreSQL), to compare with the bucket; none when it lists none. */
export function* listedObjects(backup: string): Generator<Pick<ListedObject, 'key' | 'size'>> {
  const file = backupKind(backup) === 'postgres' ? companionOf(backup) : backup;
  if (!existsSync(file)) return;
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(OBJECTS_TABLE)) return;
    yield* db.prepare(`select key, size from ${OBJECTS_TABLE} order by key`).iterate() as Iterable<Pick<ListedObject, 'key' | 'size'>>;
  } finally {
    db.close();
  }
}

/**
 * `pg_dump --format=custom` of the database at `databaseUrl` into `out`, then its companion (FILE.files):
 * the uploaded files of `dataDir` (local storage) and the bucket's listing (S3), taken after the dump
 * so that every file the dump names was stored before it (an upload after it is carried too, unnamed).
 */
export async function backupPostgres(databaseUrl: string, out: string, dataDir: string, storage: BackupFiles = {}): Promise<BackupSummary> {
  refuseExisting(out);
  refuseExisting(companionOf(out));
  refuseInside(dataDir, out);
  const partial = `${out}.partial`;
  const companionPartial = `${companionOf(out)}.partial`;
  rmSync(partial, { force: true });
  rmSync(companionPartial, { force: true });
  // The file is made private before pg_dump writes a byte of the data into it.
  closeSync(openSync(partial, 'w', 0o600));
  await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${databaseUrl}`]);
  closeSync(openSync(companionPartial, 'w', 0o600));
  const companion = new SQLite(companionPartial);
  let carried: Omit<BackupSummary, 'kind' | 'file'>;
  try {
    carried = await writeFilesPart(companion, dataDir, storage, false);
  } finally {
    companion.close();
  }
  renameSync(companionPartial, companionOf(out));
  renameSync(partial, out);
  return { kind: 'postgres', file: out, ...carried };
}

/**
 * `pg_restore` of a custom-format dump into the database at `databaseUrl`, which must hold no tables;
 * the uploaded files of its companion, when there is one, go back into `dataDir`'s files folder.
 */
export async function restorePostgres(file: string, databaseUrl: string, dataDir: string, tableCount: () => Promise<number>): Promise<BackupSummary> {
  const tables = await tableCount();
  if (tables > 0) throw new BackupRefusal(`The database has ${tables} tables already: restore into a new, empty database.`);
  const companion = companionOf(file);
  const uploadsDir = join(dataDir, UPLOADS);
  if (existsSync(companion) && existsSync(uploadsDir) && readdirSync(uploadsDir).length > 0) {
    throw new BackupRefusal(`${uploadsDir} is not empty: restore into a data directory without uploaded files (they would be mixed with the backup's).`);
  }
  await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, file]);
  if (!existsSync(companion)) return { kind: 'postgres', file, files: [], uploads: { count: 0, bytes: 0 }, objects: null };
  ensurePrivateDataDir(dataDir);
  const db = new SQLite(companion, { readonly: true, fileMustExist: true });
  try {
    return { kind: 'postgres', file, files: [], uploads: writeFilesBack(db, dataDir).uploads, objects: listedCount(db) };
  } finally {
    db.close();
  }
}

/**
 * A backup is written outside the data directory: inside it, the next backup would carry this one, and
 * a SQLite backup would carry its own file as it grows, without end.
 */
function refuseInside(dataDir: string, out: string): void {
  const path = relative(resolve(dataDir), resolve(out));
  const outside = path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path);
  if (!outside) {
    throw new BackupRefusal(`${out} is inside the data directory ${dataDir}: write the backup outside it (the next backup would carry it, and a SQLite backup would copy itself as it grows).`);
  }
}

function refuseExisting(out: string): void {
  if (existsSync(out)) throw new BackupRefusal(`${out} exists already: name a new file (a backup never overwrites one).`);
}

/** Every regular file under the data directory (or a folder of it) but the database and its companions, as relative paths. */
function dataFiles(dataDir: string, under = ''): string[] {
  const database = new Set(['aviary.sqlite', 'aviary.sqlite-wal', 'aviary.sqlite-shm']);
  return readdirSync(join(dataDir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) return dataFiles(dataDir, path);
    if (!entry.isFile() || (under === '' && database.has(entry.name))) return [];
    return [path];
  });
}

/** A path from the backup, refused if it would land outside the data directory. */
function insideDataDir(dataDir: string, path: string): string {
  const target = resolve(dataDir, path);
  if (relative(resolve(dataDir), target).startsWith(`..${sep}`) || target === resolve(dataDir)) {
    throw new BackupRefusal(`The backup names a file outside the data directory (${path.slice(0, 200)}); it was not written.`);
  }
  return target;
}

/** Runs pg_dump or pg_restore; their complaint, if they fail, becomes the error. */
function runTool(tool: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new BackupRefusal(`${tool} is not installed (Debian: apt-get install postgresql-client).`) : error),
    );
    child.once('exit', (code) => (code === 0 ? resolvePromise() : reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}
