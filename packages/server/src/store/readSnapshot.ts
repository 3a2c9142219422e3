import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { SealedAppSecretsPlugin } from './sealedAppSecrets.js';
import type { Database } from './schema.js';
import { sqliteFile, type Db, type Store } from './store.js';

/**
 * Runs `read` on one consistent view of the store, while servers keep writing: what `aviary team export`
 * reads, so that every message it writes names people and channels it wrote too.
 *
 * - PostgreSQL: a `repeatable read, read only` transaction.
 * - SQLite: a read transaction on a connection of its own (read-only), which in WAL mode sees the
 *   database as of its first read and takes no lock that writers wait for (a transaction on the store's
 *   connection would: it begins IMMEDIATE). The WAL cannot be checkpointed past that view until it ends.
 */
export async function withReadSnapshot<T>(store: Store, dataDir: string, read: (db: Db) => Promise<T>): Promise<T> {
  if (store.dialect === 'postgres') {
    return store.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  }
  const database = new SQLite(sqliteFile(dataDir), { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }), plugins: [new SealedAppSecretsPlugin(store.keyring)] });
  try {
    await sql`begin`.execute(db);
    try {
      return await read(db);
    } finally {
      await sql`commit`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}
