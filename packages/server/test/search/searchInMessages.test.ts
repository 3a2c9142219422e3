import { sql, type RawBuilder } from 'kysely';
import { expect, it } from 'vitest';
import { cliActor } from '../../src/core/audit/record.js';
import { createTeam } from '../../src/core/commands/people.js';
import { storeContext } from '../../src/core/context.js';
import { reindexMessages } from '../../src/core/search/reindex.js';
import { POSTGRES_INDEX } from '../../src/core/search/searchPostgres.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import type { Db } from '../../src/store/store.js';
import { dialects } from '../helpers/dialects.js';
import { createTestStore } from '../helpers/store.js';

/**
 * Migration 0038 (PostgreSQL): the search index is in `messages` itself (its words in the row, two GIN indexes).
 * What `message_search` held is carried over (each message in its team's language), a message it lacked
 * stays out until `aviary search reindex`, and a search's conditions are answered from the indexes.
 */
it.skipIf(!dialects.includes('postgres'))('carries the index over into messages, in each team’s language, and keeps it with every write', async () => {
  const scratch = await createTestStore('postgres', { upTo: '0037_search_buckets' });
  const { store } = scratch;
  try {
    const now = Date.now();
    const plain = await createTeam(storeContext(store.db, () => now), cliActor, { name: 'Plain' });
    const english = await createTeam(storeContext(store.db, () => now), cliActor, { name: 'English' });
    await store.db.updateTable('teams').set({ search_language: 'english' }).where('id', '=', english.id).execute();
    const message = (i: number, teamId: string, text: string) =>
      messageRow({ uid: newMessageUid(now - 60_000 + i * 1000), chat_key: 'g:a', team_id: teamId, from_user_id: 'u:a', to_id: 'g:a', timestamp: now, text });
    const [kestrels, herons, unindexed] = [message(0, plain.id, 'kestrels over the field'), message(1, english.id, 'herons running upstream'), message(2, plain.id, 'an old kestrel')];
    await insertMessages(store.db, [kestrels, herons, unindexed]);
    // As a message from before migration 0015 that no reindex reached: not in the old index.
    await sql`delete from message_search where uid = ${unindexed.uid}`.execute(store.db);
    await store.migrate();

    const indexed = async () =>
      Object.fromEntries((await sql<{ uid: string; words: string | null }>`select uid, search_words::text as words from messages`.execute(store.db)).rows.map((row) => [row.uid, row.words]));
    const { words, folded } = POSTGRES_INDEX;
    const matching = async (condition: RawBuilder<unknown>) =>
      (await sql<{ uid: string }>`select m.uid from messages m where ${POSTGRES_INDEX.indexed} and ${condition} order by m.uid`.execute(store.db)).rows.map((row) => row.uid);
    // The words carried over as the old index held them, in each team's language ("running" as "run").
    expect(await indexed()).toEqual({ [kestrels.uid]: "'field':4 'kestrels':1 'over':2 'the':3", [herons.uid]: "'heron':1 'run':2 'upstream':3", [unindexed.uid]: null });
    expect(await matching(sql`${words} @@ to_tsquery('simple', 'kestrels')`)).toEqual([kestrels.uid]);
    expect(await matching(sql`${words} @@ to_tsquery('english', 'run')`)).toEqual([herons.uid]);
    expect(await matching(sql`${folded} like '%estrel%'`)).toEqual([kestrels.uid]);

    // A new message is indexed in its team's language; an edit changes what is found; a delete takes it out.
    const later = message(3, english.id, 'more herons running');
    await insertMessages(store.db, [later]);
    expect((await indexed())[later.uid]).toBe("'heron':2 'run':3");
    expect(await matching(sql`${words} @@ to_tsquery('english', 'run')`)).toEqual([herons.uid, later.uid]);
    await sql`update messages set text = 'herons resting' where uid = ${herons.uid}`.execute(store.db);
    expect(await matching(sql`${words} @@ to_tsquery('english', 'run')`)).toEqual([later.uid]);
    await sql`delete from messages where uid = ${later.uid}`.execute(store.db);
    expect(await matching(sql`${words} @@ to_tsquery('english', 'run')`)).toEqual([]);

    // The message the old index lacked is found once a reindex reaches it.
    expect(await matching(sql`${folded} like '%old kestrel%'`)).toEqual([]);
    expect((await reindexMessages(store.db, { batchSize: 10, restart: true })).indexed).toBe(1);
    expect(await matching(sql`${folded} like '%old kestrel%'`)).toEqual([unindexed.uid]);

    // The planner answers each condition from its index (with table scans turned off, a condition the
    // index does not match exactly would be answered by one anyway).
    const plan = async (condition: RawBuilder<unknown>) =>
      store.db.transaction().execute(async (tx: Db) => {
        await sql`set local enable_seqscan = off`.execute(tx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select m.uid from messages m where ${POSTGRES_INDEX.indexed} and ${condition}`.execute(tx);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    expect(await plan(sql`${words} @@ to_tsquery('simple', 'kestrel')`)).toContain('messages_search_words');
    expect(await plan(sql`${POSTGRES_INDEX.bucket} >= 'zzzzzz' and ${words} @@ to_tsquery('simple', 'kestrel')`)).toMatch(/messages_search_words[^]*Index Cond: .*"left"\(uid, 6\) >= 'zzzzzz'/);
    expect(await plan(sql`${folded} like '%estrel%'`)).toContain('messages_search_folded');
  } finally {
    await scratch.destroy();
  }
});
