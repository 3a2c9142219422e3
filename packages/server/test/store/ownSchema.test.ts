import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/dialects.js';
import { adminQuery, createTestStore, type TestStore } from '../helpers/store.js';

// Tests share one PostgreSQL database, each in a schema of its own that it drops when done. A migration
// must not read other schemas: one dropped meanwhile made Kysely's introspection fail the migration.
describe.runIf(dialects.includes('postgres'))('a PostgreSQL store reads only its own schema', () => {
  let ours: TestStore;
  let theirs: TestStore;
  beforeAll(async () => {
    [ours, theirs] = await Promise.all([createTestStore('postgres'), createTestStore('postgres')]);
  });
  afterAll(async () => Promise.all([ours.destroy(), theirs.destroy()]));

  it('lists the tables of its own schema only', async () => {
    const tables = await ours.store.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([ours.pgSchema]));
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['users', 'messages', 'kysely_migration']));
  });

  it('migrates again while other schemas come and go', async () => {
    const churn = Array.from({ length: 20 }, (_, i) => `t_churn_${process.pid}_${i}`);
    const comings = churn.map(async (name) => {
      await adminQuery(`create schema ${name}`);
      await adminQuery(`create table ${name}.x (id int)`);
      await adminQuery(`drop schema ${name} cascade`);
    });
    await Promise.all([...comings, ...Array.from({ length: 10 }, () => ours.store.migrate())]);
    expect(await theirs.store.db.introspection.getSchemas()).toEqual([{ name: theirs.pgSchema }]);
  });
});
