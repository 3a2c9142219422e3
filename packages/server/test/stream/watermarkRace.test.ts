import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStreamEntries } from '../../src/core/queries/stream.js';
import { appendStreamEntries } from '../../src/store/rows/streamEntries.js';
import { dialects } from '../helpers/dialects.js';
import { factories } from '../helpers/factories.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

/**
 * The PostgreSQL watermark (store/streamWatermark.ts) under writers that commit as fast as they can: a
 * writer ending while a reader computes the watermark must hold that reader back, never let it read past
 * the writer's positions before they are visible. Each reader resumes from the last position it read,
 * as a stream does; at the end it must have seen every entry below that position, once, in order.
 */
describe.runIf(dialects.includes('postgres'))('[postgres] readers below the watermark while writers commit', () => {
  let store: TestStore;
  let teamId: string;
  beforeAll(async () => {
    store = await createTestStore('postgres');
    teamId = (await factories(store.store.db).team()).id;
  });
  afterAll(() => store.destroy());

  it('never lets a reader past an entry that becomes visible later', async () => {
    const db = store.store.db;
    const writes = 2_400;
    let written = 0;
    const writer = async () => {
      while (written < writes) {
        written += 1;
        await db.transaction().execute((tx) => appendStreamEntries(tx, teamId, [{ type: 'user.updated', audience: '{"to":"team"}', payload: '{}' }], 0));
      }
    };
    const reader = async () => {
      const seen: number[] = [];
      let cursor = 0;
      while (written < writes) {
        const entries = await readStreamEntries(db, teamId, cursor, 500);
        for (const entry of entries) seen.push(Number(entry.seq));
        if (entries.length > 0) cursor = Number(entries.at(-1)!.seq);
      }
      return { seen, cursor };
    };
    const [readers] = await Promise.all([Promise.all([reader(), reader(), reader(), reader()]), Promise.all(Array.from({ length: 8 }, writer))]);
    const all = (await db.selectFrom('stream_entries').select('seq').where('team_id', '=', teamId).orderBy('seq').execute()).map((row) => Number(row.seq));
    expect(all).toHaveLength(writes);
    for (const { seen, cursor } of readers) {
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).toEqual(all.filter((seq) => seq <= cursor));
    }
  }, 120_000);
});
