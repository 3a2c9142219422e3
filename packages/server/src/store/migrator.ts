import { DEFAULT_MIGRATION_TABLE, Migrator, sql, type Kysely } from 'kysely';
import { aviaryVersion } from '../version.js';
import { tableColumns, type DialectName } from './catalog.js';
import { migrationProvider } from './migrations/index.js';
import { renamedMigrations, type RenamedMigration } from './renamedMigrations.js';

/** What migrating would do: records to rename from an earlier name, then the migrations not yet applied. */
export interface MigrationPlan {
  renamed: Array<{ from: string; to: string }>;
  pending: string[];
  /** This version's last migration: the schema once the plan has run. */
  latest: string;
}

/** What migrating did. */
export interface MigrationReport {
  renamed: Array<{ from: string; to: string }>;
  applied: string[];
  latest: string;
}

/** The database records migrations this version does not know: a newer version migrated it. */
export class StoreNewerError extends Error {}

interface StoreHandle {
  db: Kysely<any>;
  dialect: DialectName;
  pgSchema: string | undefined;
}

export async function planMigrations(store: StoreHandle): Promise<MigrationPlan> {
  const { renames, pending, latest } = await plan(store);
  return { renamed: renames.map(({ from, to }) => ({ from, to })), pending, latest };
}

export async function migrateToLatest(store: StoreHandle): Promise<MigrationReport> {
  const { renames, latest } = await plan(store);
  if (renames.length > 0) await renameRecords(store, renames);
  const { db, pgSchema } = store;
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    // Kysely looks for its migration tables in every schema unless told which one is ours.
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
    // A database of a renamed migration's time lacks migrations numbered before it (85fe844 has
    // 0006_listener_backoff once renamed, not 0005_events_by_status): those run after it. Released
    // migrations only ever append, so elsewhere the pending ones come after the applied ones anyway.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`, { cause: error });
  }
  const applied = (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  return { renamed: renames.map(({ from, to }) => ({ from, to })), applied, latest };
}

async function plan(store: StoreHandle): Promise<{ renames: RenamedMigration[]; pending: string[]; latest: string }> {
  const names = Object.keys(await migrationProvider.getMigrations());
  const executed = await executedMigrations(store);
  const renames = await renamesFor(store, executed);
  const done = new Set(executed.map((name) => renames.find((rename) => rename.from === name)?.to ?? name));
  const unknown = [...done].filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new StoreNewerError(
      `This database was migrated by a newer version of Aviary: it records the migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, ` +
        `which Aviary ${aviaryVersion} does not know (its last is ${names.at(-1)}). Run the newer version on it, or restore the backup taken before that upgrade.`,
    );
  }
  return { renames, pending: names.filter((name) => !done.has(name)), latest: names.at(-1)! };
}

/** The names the database records as applied, oldest first; none before the first migration. */
async function executedMigrations({ db, dialect, pgSchema }: StoreHandle): Promise<string[]> {
  const tables = await tableColumns(db, dialect, pgSchema);
  if (!tables.has(DEFAULT_MIGRATION_TABLE)) return [];
  const table = pgSchema ? sql.table(`${pgSchema}.${DEFAULT_MIGRATION_TABLE}`) : sql.table(DEFAULT_MIGRATION_TABLE);
  const { rows } = await sql<{ name: string }>`select name from ${table} order by timestamp, name`.execute(db);
  return rows.map((row) => row.name);
}

/** The earlier names the database records, each checked against the tables and columns it has. */
async function renamesFor(store: StoreHandle, executed: string[]): Promise<RenamedMigration[]> {
  const renames = renamedMigrations.filter((rename) => executed.includes(rename.from));
  if (renames.length === 0) return [];
  const tables = await tableColumns(store.db, store.dialect, store.pgSchema);
  for (const rename of renames) {
    if (executed.includes(rename.to)) {
      throw new Error(`This database records the migration ${rename.from} and ${rename.to}, which are one migration under two names; it needs a person's look (restore the backup taken before the upgrade).`);
    }
    const missing = Object.entries(rename.makes).flatMap(([table, columns]) =>
      columns.filter((column) => !tables.get(table)?.has(column)).map((column) => `${table}.${column}`),
    );
    if (missing.length > 0) {
      throw new Error(
        `This database records the migration ${rename.from} (now named ${rename.to}) but lacks what it makes: ${missing.join(', ')}. ` +
          'Nothing was changed; restore the backup taken before the upgrade.',
      );
    }
  }
  return renames;
}

/** Renames the records and repairs what earlier texts made, in one transaction. */
async function renameRecords({ db, dialect, pgSchema }: StoreHandle, renames: RenamedMigration[]): Promise<void> {
  const table = pgSchema ? sql.table(`${pgSchema}.${DEFAULT_MIGRATION_TABLE}`) : sql.table(DEFAULT_MIGRATION_TABLE);
  await db.transaction().execute(async (tx) => {
    for (const rename of renames) {
      await sql`update ${table} set name = ${rename.to} where name = ${rename.from}`.execute(tx);
      await rename.repair?.(tx, dialect);
    }
  });
}
