import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../src/store/store.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

describe('SQLite checkpoints off the event loop', () => {
  let testStore: TestStore;
  beforeAll(async () => {
    testStore = await createTestStore('sqlite');
  });
  afterAll(async () => {
    await testStore?.destroy();
  });

  it('leaves checkpoints to the worker thread: no commit of the server checkpoints', async () => {
    const { db } = testStore.store;
    const answer = await db.transaction().execute((tx) => sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(tx));
    expect(answer.rows).toEqual([{ wal_autocheckpoint: 0 }]);
  });

  it('copies every committed frame of the WAL into the database file when asked, the database growing', async () => {
    const f = factories(testStore.store.db);
    const before = statSync(sqliteFile(testStore.dataDir)).size;
    const team = await f.team();
    for (let i = 0; i < 300; i++) await f.person(team.id);
    const result = await testStore.store.checkpoint!();
    expect(result.log).toBeGreaterThan(0);
    expect(result.checkpointed).toBe(result.log);
    expect(statSync(sqliteFile(testStore.dataDir)).size).toBeGreaterThan(before);
  });
});
