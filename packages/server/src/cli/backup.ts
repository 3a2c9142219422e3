import { resolve } from 'node:path';
import type { Command } from 'commander';
import { sql } from 'kysely';
import { backupKind, backupPostgres, BackupRefusal, backupSqlite, restorePostgres, restoreSqlite, type BackupSummary } from '../store/backup.js';
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
        return config.databaseUrl ? backupPostgres(config.databaseUrl, out) : backupSqlite(config.dataDir, out);
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
        if (!config.databaseUrl) return restoreSqlite(file, config.dataDir);
        const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
        try {
          return await restorePostgres(file, config.databaseUrl, async () => {
            const { rows } = await sql<{ count: string }>`select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`.execute(store.db);
            return Number(rows[0].count);
          });
        } finally {
          await store.close();
        }
      }),
    );
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
  return `${summary.file}: ${store}${files}.`;
}
