import { resolve } from 'node:path';
import type { Command } from 'commander';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { S3FileStorage } from '../files/s3Storage.js';
import { fileStorageFor } from '../files/storage.js';
import { backupKind, backupPostgres, BackupRefusal, backupSqlite, listedObjects, restorePostgres, restoreSqlite, type BackupFiles, type BackupSummary } from '../store/backup.js';
import { openStore } from '../store/store.js';
import { configFrom, withStoreOptions, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError, reportFailure, toCliError } from './errors.js';

interface BackupFlags extends StoreFlags, OutputFlags {
  out: string;
}

interface RestoreFlags extends StoreFlags, OutputFlags {
  from: string;
}

/**
 * `aviary backup` and `aviary restore` (docs/operations.md, "Backups"). Neither migrates: a backup is
 * of the store as it is, and a restore brings back the schema the backup had (a server started on it
 * migrates it as on any start).
 */
export function registerBackupCommands(program: Command): void {
  withStoreOptions(program.command('backup').description('Back up the store while servers run on it: SQLite with the data directory, PostgreSQL with pg_dump.'))
    .requiredOption('--out <file>', 'the backup file to write (it must not exist)')
    .option('--json', 'print exactly one JSON object on stdout (errors as {"error","description"})')
    .action((flags: BackupFlags) =>
      run(flags, async () => {
        const config = configFrom(flags);
        const out = resolve(flags.out);
        const files = filesOf(config);
        return config.databaseUrl ? backupPostgres(config.databaseUrl, out, config.dataDir, files) : backupSqlite(config.dataDir, out, files);
      }),
    );
  withStoreOptions(program.command('restore').description('Restore a backup of `aviary backup` into an empty data directory or an empty PostgreSQL database.'))
    .requiredOption('--from <file>', 'the backup file')
    .option('--json', 'print exactly one JSON object on stdout (errors as {"error","description"})')
    .action((flags: RestoreFlags) =>
      run(flags, async () => {
        const config = configFrom(flags);
        const file = resolve(flags.from);
        const kind = readableBackupKind(file);
        const target = config.databaseUrl ? 'postgres' : 'sqlite';
        if (kind !== target) {
          const into = target === 'postgres' ? 'a PostgreSQL database (--database-url)' : 'a SQLite data directory (--data, without --database-url)';
          throw new BackupRefusal(`${file} is a ${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'} backup; it cannot be restored into ${into}.`);
        }
        if (!config.databaseUrl) return checkObjects(config, file, restoreSqlite(file, config.dataDir));
        const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
        try {
          const summary = await restorePostgres(file, config.databaseUrl, config.dataDir, async () => {
            const { rows } = await sql<{ count: string }>`select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`.execute(store.db);
            return Number(rows[0].count);
          });
          return await checkObjects(config, file, summary);
        } finally {
          await store.close();
        }
      }),
    );
}

/** What a backup carries of the files besides the data directory: the bucket's listing, when files are kept in S3. */
function filesOf(config: Config): BackupFiles {
  const storage = fileStorageFor(config);
  return storage instanceof S3FileStorage ? { objects: storage.list() } : {};
}

/**
 * After a restore, the objects the backup listed that the bucket lacks (their bytes are the bucket's to
 * keep: a versioned or replicated bucket brings them back). Counted, and the first few named on stderr.
 */
async function checkObjects(config: Config, file: string, summary: BackupSummary): Promise<BackupSummary> {
  const storage = fileStorageFor(config);
  if (summary.objects === null || !(storage instanceof S3FileStorage)) return summary;
  const inBucket = new Map<string, number>();
  for await (const object of storage.list()) inBucket.set(object.key, object.size);
  const missing = [...listedObjects(file)].filter((object) => inBucket.get(object.key) !== object.size);
  for (const object of missing.slice(0, 20)) process.stderr.write(`aviary: the bucket lacks ${object.key} (${object.size} bytes), listed in the backup.\n`);
  return { ...summary, objects: { ...summary.objects, missing: missing.length } };
}

function readableBackupKind(file: string) {
  let kind: ReturnType<typeof backupKind>;
  try {
    kind = backupKind(file);
  } catch (error) {
    throw new BackupRefusal(`${file} cannot be read: ${(error as Error).message}`);
  }
  if (!kind) throw new BackupRefusal(`${file} is not a backup of aviary backup (neither a SQLite database nor a pg_dump custom-format file).`);
  return kind;
}

async function run(flags: OutputFlags, work: () => Promise<BackupSummary>): Promise<void> {
  try {
    const summary = await work();
    process.stdout.write(flags.json ? `${JSON.stringify(summary)}\n` : `${summaryText(summary)}\n`);
  } catch (error) {
    reportFailure(error instanceof BackupRefusal ? new CliError('InvalidOption', error.message) : toCliError(error), flags.json === true);
  }
}

function summaryText(summary: BackupSummary): string {
  const store = summary.kind === 'postgres' ? 'PostgreSQL database' : 'SQLite store';
  const files = summary.kind === 'sqlite' ? `, with ${summary.files.length} file(s) of the data directory` : '';
  const uploads = `; ${summary.uploads.count} uploaded file(s), ${summary.uploads.bytes} bytes${summary.kind === 'postgres' && summary.uploads.count > 0 ? ` (in ${summary.file}.files)` : ''}`;
  const { objects } = summary;
  const listed = objects === null ? '' : `; the bucket's listing, ${objects.listed} object(s)${objects.missing !== undefined ? `, ${objects.missing} of them not in the bucket now` : ''}`;
  return `${summary.file}: ${store}${files}${uploads}${listed}.`;
}
