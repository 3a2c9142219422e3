import { randomBytes } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sqliteFile } from '../../src/store/store.js';
import type { TestDialect } from '../helpers/dialects.js';
import { postgresTestUrl } from '../helpers/dialects.js';
import { adminQuery } from '../helpers/store.js';
import { tempDataDir } from '../cli/cli.js';

/**
 * The stores earlier versions of Aviary made, with data in every table (fixtures/<version or commit>/,
 * made by packages/server/scripts/upgrade-fixture/make.sh): the upgrade test migrates each to today's schema.
 */
const folder = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const fixtureNames = readdirSync(folder).sort();

/** What make.sh wrote down about a fixture's store: the demo's logins and tokens, and a session. */
export interface FixtureFacts {
  /** When the store was made: the upgraded server's clock, so that the session is still live. */
  madeAt: number;
  sessionToken: string;
  teamId: string;
  users: Array<{ id: string; email: string; password: string; firstName: string; token: string }>;
  app: { id: string; botUserId: string; botToken: string };
}

/** A fixture's store, copied (SQLite) or loaded (PostgreSQL, a database of its own) where the test may change it. */
export interface FixtureStore {
  facts: FixtureFacts;
  dataDir: string;
  databaseUrl?: string;
  remove(): Promise<void>;
}

export async function loadFixture(name: string, dialect: TestDialect): Promise<FixtureStore> {
  const facts = JSON.parse(readFileSync(join(folder, name, `${dialect}.json`), 'utf8')) as FixtureFacts;
  const data = tempDataDir();
  if (dialect === 'sqlite') {
    copyFileSync(join(folder, name, 'aviary.sqlite'), sqliteFile(data.dir));
    return { facts, dataDir: data.dir, remove: async () => data.remove() };
  }
  const database = `aviary_upgrade_${randomBytes(6).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(postgresTestUrl), { pathname: `/${database}` }).toString();
  await adminQuery(`create database ${database}`);
  const remove = async () => {
    await adminQuery(`drop database if exists ${database} with (force)`);
    data.remove();
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    await client.query(readFileSync(join(folder, name, 'postgres.sql'), 'utf8'));
  } catch (error) {
    await remove();
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  return { facts, dataDir: data.dir, databaseUrl, remove };
}

/** The migrations a fixture's store records (its SQLite file's; the PostgreSQL dump is of the same version). */
export function fixtureMigrations(name: string): string[] {
  const database = new SQLite(join(folder, name, 'aviary.sqlite'), { readonly: true });
  try {
    return (database.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    database.close();
  }
}
