import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { reindexMessages } from '../../src/core/search/reindex.js';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { dialects } from '../helpers/dialects.js';
import { createTestStore } from '../helpers/store.js';

/**
 * Migration 0037 (PostgreSQL): each indexed message's bucket is its uid's first six characters, for the
 * messages indexed before it, after it, and by `aviary search reindex`; a search's slice asks the word
 * index by bucket (docs/search.md "How a search walks the index").
 */
it.skipIf(!dialects.includes('postgres'))('gives every indexed message its bucket, carried over, written by the drain and by a reindex', async () => {
  const scratch = await createTestStore('postgres', { upTo: '0036_search_fold_once' });
  const { store } = scratch;
  try {
    // Hours apart, so that their buckets differ.
    const start = Date.now() - 10 * 3_600_000;
    const message = (i: number, text: string) =>
      messageRow({ uid: newMessageUid(start + i * 3_600_000), chat_key: 'g:a', team_id: 't:buckets', from_user_id: 'u:buckets', to_id: 'g:a', timestamp: start + i * 3_600_000, text });
    const before = [message(0, 'kestrel over the field'), message(1, 'kestrel at dawn')];
    await insertMessages(store.db, before);
    await store.migrate();

    const buckets = async () =>
      Object.fromEntries((await sql<{ uid: string; bucket: string }>`select uid, bucket from message_search`.execute(store.db)).rows.map((row) => [row.uid, row.bucket]));
    const expected = (messages: Array<{ uid: string }>) => Object.fromEntries(messages.map(({ uid }) => [uid, uid.slice(0, 6)]));
    expect(await buckets()).toEqual(expected(before));
    expect(new Set(Object.values(await buckets())).size).toBe(2);

    const after = message(2, 'a kestrel again');
    await insertMessages(store.db, [after]);
    // Indexed by the drain since migration 0040 (the trigger only queues it).
    await drainSearchQueue(store.db);
    await sql`update messages set text = 'a kestrel after all' where uid = ${before[0].uid}`.execute(store.db);
    expect(await buckets()).toEqual(expected([...before, after]));

    // A message the index lacks (as from before migration 0015), indexed by a reindex.
    await sql`delete from message_search where uid = ${after.uid}`.execute(store.db);
    expect((await reindexMessages(store.db, { batchSize: 10, restart: true })).indexed).toBe(1);
    expect(await buckets()).toEqual(expected([...before, after]));
    const found = await sql<{ uid: string }>`select uid from message_search where bucket >= ${after.uid.slice(0, 6)} and document @@ to_tsquery('simple', 'kestrel')`.execute(store.db);
    expect(found.rows.map((row) => row.uid)).toEqual([after.uid]);
  } finally {
    await scratch.destroy();
  }
});
