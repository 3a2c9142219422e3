import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openStore, type Store } from '../../src/store/store.js';
import { postgresTestUrl, type TestDialect } from './dialects.js';

export interface TestStore {
  store: Store;
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  /** Opens another store on the same data (as a second process or the CLI would). */
  reopen(): Store;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated store: a SQLite file in its own temp dir, or a PostgreSQL schema of its own. With
 * `upTo`, migrated up to that migration only (a migration's test writes rows before it runs).
 */
export async function createTestStore(dialect: TestDialect, { upTo }: { upTo?: string } = {}): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aviary-test-'));
  const pgSchema = dialect === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (pgSchema) await adminQuery(`create schema ${pgSchema}`);
  const databaseUrl = pgSchema ? postgresTestUrl : undefined;
  const reopen = () => openStore({ dataDir, databaseUrl, pgSchema });
  const store = reopen();
  if (upTo === undefined) await store.migrate();
  else {
    const migrator = new Migrator({ db: store.db, provider: migrationProvider, migrationTableSchema: pgSchema, allowUnorderedMigrations: true });
    const { error } = await migrator.migrateTo(upTo);
    if (error) throw error;
  }
  return {
    store,
    dataDir,
    databaseUrl,
    pgSchema,
    reopen,
    async destroy() {
      await store.close().catch(() => undefined);
      if (pgSchema) await adminQuery(`drop schema ${pgSchema} cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on the test PostgreSQL as its administrator (schemas, databases). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresTestUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
