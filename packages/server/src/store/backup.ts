// Backups of a store while a server runs on it, and their restore into an empty store (docs/operations.md,
// "Backups"). SQLite: the online backup API (a consistent copy page by page, WAL included, while writers
// go on), with the data directory's other files inside the copy. PostgreSQL: `pg_dump` in its custom
// format, and `pg_restore`.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import SQLite from 'better-sqlite3';
import { ensurePrivateDataDir, sqliteFile } from './store.js';

/** The table of the SQLite backup that carries the data directory's other files; restore removes it. */
const FILES_TABLE = 'aviary_backup_files';
/** A data directory's file larger than this is refused rather than read into memory whole. */
const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;

export type BackupKind = 'sqlite' | 'postgres';

/** Something about the backup or its target that the person must change; the message says what. */
export class BackupRefusal extends Error {}

export interface BackupSummary {
  kind: BackupKind;
  file: string;
  /** The data directory's files carried with a SQLite backup (their paths inside it). */
  files: string[];
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
export async function backupSqlite(dataDir: string, out: string): Promise<BackupSummary> {
  const database = sqliteFile(dataDir);
  if (!existsSync(database)) throw new BackupRefusal(`There is no SQLite store in ${dataDir} (no ${database}).`);
  refuseExisting(out);
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  const source = new SQLite(database, { readonly: true, fileMustExist: true });
  try {
    await source.backup(partial);
  } finally {
    source.close();
  }
  const copy = new SQLite(partial);
  const files = dataFiles(dataDir);
  try {
    copy.exec(`create table ${FILES_TABLE} (path text primary key, mode integer not null, content blob not null)`);
    const insert = copy.prepare(`insert into ${FILES_TABLE} (path, mode, content) values (?, ?, ?)`);
    for (const path of files) {
      const full = join(dataDir, path);
      insert.run(path, lstatSync(full).mode & 0o777, readFileSync(full));
    }
  } finally {
    copy.close();
  }
  chmodSync(partial, 0o600);
  renameSync(partial, out);
  return { kind: 'sqlite', file: out, files };
}

/** The backup into `dataDir`, which must hold no store yet; the data directory's files come back too. */
export function restoreSqlite(file: string, dataDir: string): BackupSummary {
  const database = sqliteFile(dataDir);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new BackupRefusal(`${dataDir} is not empty: restore into a new data directory (the store there would be replaced).`);
  }
  ensurePrivateDataDir(dataDir);
  const partial = `${database}.partial`;
  writeFileSync(partial, readFileSync(file), { mode: 0o600 });
  const restored = new SQLite(partial);
  const files: string[] = [];
  try {
    const hasFiles = restored.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(FILES_TABLE);
    if (!hasFiles) throw new BackupRefusal(`${file} is a SQLite database but not an Aviary backup (no ${FILES_TABLE} table).`);
    const rows = restored.prepare(`select path, mode, content from ${FILES_TABLE} order by path`).all() as Array<{ path: string; mode: number; content: Buffer }>;
    for (const row of rows) {
      const target = insideDataDir(dataDir, row.path);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, row.content, { mode: row.mode & 0o777 });
      files.push(row.path);
    }
    restored.exec(`drop table ${FILES_TABLE}`);
    // The store's own mode: SQLite keeps the log in a -wal file beside it.
    restored.pragma('journal_mode = WAL');
  } catch (error) {
    restored.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  restored.close();
  renameSync(partial, database);
  return { kind: 'sqlite', file, files };
}

/** `pg_dump --format=custom` of the database at `databaseUrl` into `out`. */
export async function backupPostgres(databaseUrl: string, out: string): Promise<BackupSummary> {
  refuseExisting(out);
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  // The file is made private before pg_dump writes a byte of the data into it.
  closeSync(openSync(partial, 'w', 0o600));
  await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${databaseUrl}`]);
  renameSync(partial, out);
  return { kind: 'postgres', file: out, files: [] };
}

/** `pg_restore` of a custom-format dump into the database at `databaseUrl`, which must hold no tables. */
export async function restorePostgres(file: string, databaseUrl: string, tableCount: () => Promise<number>): Promise<BackupSummary> {
  const tables = await tableCount();
  if (tables > 0) throw new BackupRefusal(`The database has ${tables} tables already: restore into a new, empty database.`);
  await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, file]);
  return { kind: 'postgres', file, files: [] };
}

function refuseExisting(out: string): void {
  if (existsSync(out)) throw new BackupRefusal(`${out} exists already: name a new file (a backup never overwrites one).`);
}

/** Every regular file under the data directory but the database and its companions, as relative paths. */
function dataFiles(dataDir: string, under = ''): string[] {
  const database = new Set(['aviary.sqlite', 'aviary.sqlite-wal', 'aviary.sqlite-shm']);
  return readdirSync(join(dataDir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === '' ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) return dataFiles(dataDir, path);
    if (!entry.isFile() || (under === '' && database.has(entry.name))) return [];
    const size = lstatSync(join(dataDir, path)).size;
    if (size > MAX_DATA_FILE_BYTES) throw new BackupRefusal(`${join(dataDir, path)} is larger than ${MAX_DATA_FILE_BYTES} bytes; move it out of the data directory.`);
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
