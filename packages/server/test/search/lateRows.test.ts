import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openStore, type Store } from '../../src/store/store.js';

/** Migration 0034 (SQLite): the index rows given to a message older than one indexed before it, as docs/search.md "How a search walks the index" has them. */
let store: Store | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lateUids = async (db: Store['db']) => (await sql<{ uid: string }>`select uid from message_search_late order by id`.execute(db)).rows.map((row) => row.uid);

it('notes the late rows already indexed when it runs, and each late row written after, forgetting a row deleted', async () => {
  dir = mkdtempSync(join(tmpdir(), 'aviary-late-rows-'));
  store = openStore({ dataDir: dir });
  const migrator = new Migrator({ db: store.db, provider: migrationProvider, allowUnorderedMigrations: true });
  const before = await migrator.migrateTo('0033_upload_parts');
  expect(before.error).toBeUndefined();
  // Rows as the drain and `aviary search reindex` write them: in uid order, then older history after.
  for (const uid of ['b', 'c', 'f', 'a', 'd', 'g', 'e']) await sql`insert into message_search_rows (uid) values (${uid})`.execute(store.db);
  await store.migrate();
  expect(await lateUids(store.db)).toEqual(['a', 'd', 'e']);
  for (const uid of ['h', 'b0', 'i']) await sql`insert into message_search_rows (uid) values (${uid})`.execute(store.db);
  expect(await lateUids(store.db)).toEqual(['a', 'd', 'e', 'b0']);
  await sql`delete from message_search_rows where uid in ('d', 'h')`.execute(store.db);
  expect(await lateUids(store.db)).toEqual(['a', 'e', 'b0']);
});

it('notes a row by a seek in the uid index, never by walking the rows before it (which made indexing quadratic)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'aviary-late-rows-'));
  store = openStore({ dataDir: dir });
  await store.migrate();
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and name = 'message_search_late_insert'`.execute(store.db);
  const condition = /when\s+exists\s*\((select[\s\S]*?)\)\s*begin/i.exec(rows[0]!.sql)?.[1];
  expect(condition).toBeDefined();
  const plan = await sql<{ detail: string }>`explain query plan ${sql.raw(condition!.replaceAll('new.uid', "'m'").replaceAll('new.id', '1000'))}`.execute(store.db);
  const details = plan.rows.map((row) => row.detail).join('\n');
  expect(details).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_message_search_rows_1 \(uid>\?\)/);
  expect(details).not.toMatch(/INTEGER PRIMARY KEY|SCAN/);
});
