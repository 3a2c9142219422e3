import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import type { Store } from '../../src/store/store.js';
import { runCli } from '../cli/cli.js';
import { cliStore, type CliStore } from '../cli/stores.js';
import { dialects } from '../helpers/dialects.js';

/** How many messages the index finds for one word, asked of the index itself. */
async function indexedWith(store: Store, word: string): Promise<number> {
  const query =
    store.dialect === 'sqlite'
      ? sql<{ n: number }>`select count(*) as n from message_search where message_search match ${word}`
      : sql<{ n: number }>`select count(*)::int as n from message_search where document @@ to_tsquery('simple', ${word})`;
  return Number((await query.execute(store.db)).rows[0].n);
}

/** The index emptied, as it is for the messages of a store from before migration 0015. */
async function forgetIndex(store: Store): Promise<void> {
  await sql`delete from message_search`.execute(store.db);
  if (store.dialect === 'sqlite') await sql`delete from message_search_rows`.execute(store.db);
}

for (const dialect of dialects) {
  describe(`aviary search reindex [${dialect}]`, () => {
    let cli: CliStore | undefined;
    let store: Store | undefined;
    afterEach(async () => {
      await store?.close();
      await cli?.remove();
    });

    async function storeWithHistory(count: number): Promise<{ store: Store; uids: string[] }> {
      cli = await cliStore(dialect);
      store = cli.open();
      await store.migrate();
      const base = Date.UTC(2026, 0, 1);
      const uids = Array.from({ length: count }, (_, i) => newMessageUid(base + i));
      const rows = uids.map((uid, i) =>
        messageRow({ uid, chat_key: 'g:aaaaaaaaaaaaaaaa', team_id: 't:x', from_user_id: 'u:aaaaaaaaaaaaaaaa', to_id: 'g:aaaaaaaaaaaaaaaa', timestamp: base + i, text: `old heron sighting ${i}` }),
      );
      await insertMessages(store.db, rows);
      await forgetIndex(store);
      return { store, uids };
    }

    it('indexes every message the index lacks, in batches, printing its progress, and leaves the indexed ones be', async () => {
      const { store } = await storeWithHistory(7);
      expect(await indexedWith(store, 'heron')).toBe(0);
      const run = await runCli(['search', 'reindex', '--batch', '3', '--json', ...cli!.on]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ scanned: 7, indexed: 7, position: expect.any(String) });
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^Looked at 3 of 7 messages, indexed 3/),
        expect.stringMatching(/^Looked at 6 of 7 messages, indexed 6/),
        expect.stringMatching(/^Looked at 7 of 7 messages, indexed 7/),
      ]);
      expect(await indexedWith(store, 'heron')).toBe(7);

      const again = await runCli(['search', 'reindex', '--restart', '--json', ...cli!.on]);
      expect(JSON.parse(again.stdout)).toMatchObject({ scanned: 7, indexed: 0 });
      expect(await indexedWith(store, 'heron')).toBe(7);
    });

    it('resumes after the last batch a stopped run recorded, and starts over with --restart', async () => {
      const { store, uids } = await storeWithHistory(5);
      // As if a run had stopped after its batch up to the second message.
      await store.db.insertInto('search_reindex').values({ position: uids[1] }).execute();
      const resumed = await runCli(['search', 'reindex', '--json', ...cli!.on]);
      expect(JSON.parse(resumed.stdout)).toEqual({ scanned: 3, indexed: 3, position: uids[4] });
      expect(await indexedWith(store, 'heron')).toBe(3);

      const done = await runCli(['search', 'reindex', '--json', ...cli!.on]);
      expect(JSON.parse(done.stdout)).toMatchObject({ scanned: 0, indexed: 0 });
      const restarted = await runCli(['search', 'reindex', '--restart', '--json', ...cli!.on]);
      expect(JSON.parse(restarted.stdout)).toEqual({ scanned: 5, indexed: 2, position: uids[4] });
      expect(await indexedWith(store, 'heron')).toBe(5);
    });

    it('refuses a batch size out of bounds', async () => {
      cli = await cliStore(dialect);
      const run = await runCli(['search', 'reindex', '--batch', '0', '--json', ...cli.on]);
      expect(run.code).not.toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ error: 'InvalidUsage', description: expect.stringMatching(/--batch/) });
    });
  });
}
