import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { postgresTestUrl } from '../helpers/dialects.js';
import { onPostgres } from '../helpers/pgLocks.js';
import { chatCast } from '../methods/chat-cast.js';

/**
 * PostgreSQL: the drain of the search queue (migration 0040, core/search/searchQueue.ts) beside a delete
 * of a queued message still in flight on another connection. The drain must not wait for it (a delete
 * of several messages would otherwise wait on the drain in a circle), must not index it behind the
 * delete's back (its row of the index would outlive the message), and must keep it queued, so that it
 * is indexed if the delete fails.
 */
onPostgres('the search drain beside a delete in flight', (suite) => {
  const db = () => suite().t.testStore.store.db;
  let other: pg.Client;
  beforeAll(async () => {
    other = new pg.Client({ connectionString: postgresTestUrl });
    await other.connect();
    await other.query(`set search_path to ${suite().t.testStore.pgSchema!}`);
  });
  afterAll(() => other.end());

  const count = async (query: ReturnType<typeof sql<{ n: number }>>): Promise<number> => Number((await query.execute(db())).rows[0].n);
  const indexedRows = (uid: string) => count(sql<{ n: number }>`select count(*)::int as n from message_search where uid = ${uid}`);
  const queuedRows = (uid: string) => count(sql<{ n: number }>`select count(*)::int as n from message_search_queue where uid = ${uid}`);

  /** A queued message (written as an import does, so that no search drains it first) with a word of its own. */
  async function queued(text: string): Promise<string> {
    const { alice, channelId, team } = await chatCast(suite().t);
    const uid = newMessageUid(Date.now());
    await insertMessages(db(), [messageRow({ uid, chat_key: channelId, team_id: team.id, from_user_id: alice.id, to_id: channelId, timestamp: Date.now(), text })]);
    return uid;
  }

  for (const outcome of ['commit', 'rollback'] as const) {
    it(`passes over a message being deleted without waiting, then ${outcome === 'commit' ? 'drops it' : 'indexes it when the delete fails'}`, async () => {
      const uid = await queued(`grebe ${outcome} text`);
      // A second message queued after it, free to index: the drain goes on past the one it passes over.
      const after = await queued(`avocet ${outcome} text`);
      await other.query('begin');
      try {
        await other.query('delete from messages where uid = $1', [uid]);
        await drainSearchQueue(db());
        expect([await indexedRows(uid), await queuedRows(uid)]).toEqual([0, 1]);
        expect([await indexedRows(after), await queuedRows(after)]).toEqual([1, 0]);
      } finally {
        await other.query(outcome);
      }
      await drainSearchQueue(db());
      expect([await indexedRows(uid), await queuedRows(uid)]).toEqual([outcome === 'commit' ? 0 : 1, 0]);
    });
  }
});
