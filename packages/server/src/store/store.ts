import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, type Dialect, type PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DialectName } from './catalog.js';
import { migrateToLatest, planMigrations, type MigrationPlan, type MigrationReport } from './migrator.js';
import { SealedAppSecretsPlugin, sealStoredSecrets } from './sealedAppSecrets.js';
import { loadSecretKeyring, type SecretKeyring } from './secretKeys.js';
import { OwnSchemaPostgresDialect } from './ownSchemaIntrospector.js';
import { StoreClient } from './pgClient.js';
import type { Database } from './schema.js';
import { executeCompiled, groupCommitSqliteDialect, WRITE_LOCK_WAIT_MS, type SqliteConnection } from './sqliteGroupCommit.js';
import { startWalCheckpointer, type CheckpointResult, type WalCheckpointer } from './walCheckpointer.js';

export type { DialectName } from './catalog.js';
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface StoreOptions {
  /** `postgres://…`; when absent, SQLite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests give each run its own). */
  pgSchema?: string;
  pgPoolSize?: number;
  /** The keys that seal app secrets (config.secretKeys); without them, the key generated in `dataDir`. */
  secretKeys?: readonly string[];
}

export interface Store {
  db: Db;
  dialect: DialectName;
  /** The server's secret keys (AVIARY_SECRET_KEY or the generated one): they seal app secrets and sign device cookies. */
  keyring: SecretKeyring;
  /**
   * Brings the schema to this version's (StoreNewerError for a database a newer version migrated), then
   * seals the app secrets still in clear or under an older key.
   */
  migrate(): Promise<MigrationReport>;
  /** What migrate() would do, changing nothing. */
  planMigrations(): Promise<MigrationPlan>;
  close(): Promise<void>;
  /**
   * A number that changes in the same transaction as any change to tokens, users, installs or an app's
   * team switch, whoever makes it (the CLI beside a running server too); undefined where the store keeps
   * none (PostgreSQL). While it stands, a token lookup read after it still holds.
   */
  credentialsVersion(): Promise<number | undefined>;
  /** SQLite: copies the WAL into the database file now, off the event loop (it also happens every 500 ms). */
  checkpoint?: () => Promise<CheckpointResult>;
}

const INT8_OID = 20;
const CREDENTIALS_VERSION = CompiledQuery.raw('select version from credentials_version');

export function openStore(options: StoreOptions): Store {
  const dialect: DialectName = options.databaseUrl ? 'postgres' : 'sqlite';
  const keyring = loadSecretKeyring(options);
  const db = new Kysely<Database>({
    dialect: options.databaseUrl ? postgresDialect(options.databaseUrl, options) : sqliteDialect(options.dataDir),
    plugins: [new SealedAppSecretsPlugin(keyring)],
  });
  const checkpointer: WalCheckpointer | undefined = dialect === 'sqlite' ? startWalCheckpointer(sqliteFile(options.dataDir)) : undefined;
  return {
    db,
    dialect,
    keyring,
    // The secrets are sealed with the schema: the key is at hand only here, at run time, not in a migration.
    migrate: async () => {
      const report = await migrateToLatest({ db, dialect, pgSchema: options.pgSchema });
      await sealStoredSecrets(db);
      return report;
    },
    planMigrations: () => planMigrations({ db, dialect, pgSchema: options.pgSchema }),
    close: async () => {
      await db.destroy();
      await checkpointer?.stop();
    },
    ...(checkpointer ? { checkpoint: () => checkpointer.checkpoint() } : {}),
    credentialsVersion: async () => {
      if (dialect !== 'sqlite') return undefined;
      const { rows } = await executeCompiled<{ version: number }>(db, CREDENTIALS_VERSION);
      return rows[0].version;
    },
  };
}

export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'aviary.sqlite');
}

/**
 * The data directory holds the database, with every app secret and token hash in it: only the server's
 * own user may enter it. Made 0700, and an existing one tightened to 0700 (chmod, so that no umask can
 * loosen it).
 */
export function ensurePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/**
 * The database file and its -wal and -shm companions are 0600. The file is made before SQLite opens it,
 * because SQLite gives the companions it creates the database file's mode.
 */
function ensurePrivateDatabaseFiles(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}

function sqliteDialect(dataDir: string): Dialect {
  ensurePrivateDataDir(dataDir);
  ensurePrivateDatabaseFiles(sqliteFile(dataDir));
  const open = (busyTimeoutMs: number) => {
    const database = new SQLite(sqliteFile(dataDir));
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // No checkpoint on commit: a worker thread checkpoints (walCheckpointer.ts), so the event loop never
    // waits for the fsync of the database file. A reset WAL is cut back to 64 MiB.
    database.pragma('wal_autocheckpoint = 0');
    database.pragma('journal_size_limit = 67108864');
    database.pragma('foreign_keys = ON');
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    return database;
  };
  return groupCommitSqliteDialect({
    // The writer waits for another connection's write lock in the driver, not in SQLite (sqliteGroupCommit.ts).
    writer: () => withStatementCache(open(0)),
    reader: () => {
      // A reader waits only in rare cases (a WAL being recovered), never for a writer.
      const database = open(WRITE_LOCK_WAIT_MS);
      database.pragma('query_only = ON');
      return withStatementCache(database);
    },
  });
}

/**
 * Kysely prepares every query anew; preparing costs more than running most of ours. Kysely compiles the
 * same query shape to the same SQL text, so statements are cached by their text (bounded, least recently
 * used first out).
 */
function withStatementCache(database: SQLite.Database, capacity = 500): SqliteConnection {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    get inTransaction() {
      return database.inTransaction;
    },
    prepare(sqlText) {
      let statement = statements.get(sqlText);
      if (statement) {
        statements.delete(sqlText);
      } else {
        statement = database.prepare(sqlText);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

function postgresDialect(url: string, options: StoreOptions): PostgresDialect {
  const pool = new pg.Pool({
    Client: StoreClient,
    connectionString: url,
    max: options.pgPoolSize ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection error must not crash the process, whether the client is idle in the pool (the pool's
  // 'error') or checked out between two statements of a transaction when the server ends the connection
  // (the client's own 'error', which has no listener while checked out): the next query reports it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new OwnSchemaPostgresDialect({ pool }, options.pgSchema);
}

const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable)/;

/** Whether an error means the database could not be reached (answered as 503, not 500). */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  // What node-postgres throws, without a code, for a connection that broke or was ended under it.
  if (typeof code !== 'string') return LOST_CONNECTION.test(String((error as { message?: unknown })?.message));
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'].includes(code) ||
    code.startsWith('57P') || // admin shutdown, cannot connect now
    code.startsWith('08') // connection exceptions
  ) ;
}
