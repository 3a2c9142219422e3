import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { tableColumns } from '../../src/store/catalog.js';
import { dialects } from '../helpers/dialects.js';
import { createTestStore, type TestStore } from '../helpers/store.js';
import { schemaOf } from './upgradeSnapshots.js';

/**
 * Stores of development builds between 85fe844 and 0.10.0 recorded migrations under earlier names
 * (src/store/renamedMigrations.ts). The fixtures cover 85fe844; these stores are made here from a new one,
 * turned back into what those builds left.
 */
describe.each(dialects)('migrations recorded under an earlier name (%s)', (dialect) => {
  let testStore: TestStore;
  afterEach(() => testStore?.destroy());
  const recorded = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(testStore.store.db)).rows.map((row) => row.name);
  const rename = (from: string, to: string) => sql`update kysely_migration set name = ${to} where name = ${from}`.execute(testStore.store.db);

  it("the stream branch's first 0006_stream: renamed, and brought to what 0007_stream makes today", async () => {
    testStore = await createTestStore(dialect);
    const { db } = testStore.store;
    const today = await schemaOf(testStore.store, testStore.pgSchema);
    await rename('0007_stream', '0006_stream');
    // What a559a82's text made: an index on created_at, and on SQLite no trigger moving the team's position.
    await sql`create index stream_entries_created on stream_entries (created_at)`.execute(db);
    if (dialect === 'sqlite') await sql`drop trigger stream_entries_position`.execute(db);

    expect(await testStore.store.planMigrations()).toMatchObject({ renamed: [{ from: '0006_stream', to: '0007_stream' }], pending: [] });
    expect(await testStore.store.migrate()).toMatchObject({ renamed: [{ from: '0006_stream', to: '0007_stream' }], applied: [] });
    expect(await recorded()).toContain('0007_stream');
    expect(await schemaOf(testStore.store, testStore.pgSchema)).toEqual(today);
  });

  it('refuses, changing nothing, a record whose migration the schema lacks', async () => {
    testStore = await createTestStore(dialect);
    await rename('0008_secret_grace', '0006_secret_grace');
    await sql`alter table apps drop column previous_secret_until`.execute(testStore.store.db);
    const lacks = 'This database records the migration 0006_secret_grace (now named 0008_secret_grace) but lacks what it makes: apps.previous_secret_until.';
    await expect(testStore.store.planMigrations()).rejects.toThrow(lacks);
    await expect(testStore.store.migrate()).rejects.toThrow(lacks);
    expect(await recorded()).toContain('0006_secret_grace');
    expect((await tableColumns(testStore.store.db, dialect, testStore.pgSchema)).get('apps')?.has('previous_secret')).toBe(true);
  });
});
