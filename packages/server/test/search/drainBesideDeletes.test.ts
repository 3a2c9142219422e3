import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { dialects, postgresTestUrl } from '../helpers/dialects.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

/**
 * PostgreSQL: the drain of the search queue (migration 0040, core/search/searchQueue.ts) beside a delete
 * of a queued message still in flight on another connection. The drain must not wait for it (a delete
 * of several messages would otherwise wait on the drain in a circle), must not index it behind the
 * delete's back (its row of the index would outlive the message), and must keep it queued, so that it
 * is indexed if the delete fails. On a store with no server, so that no background drain takes the
 * message first.
 */
describe.runIf(dialects.includes('postgres'))('[postgres] the search drain beside a delete in flight', () => {
  let scratch: TestStore;
  let other: pg.Client;
  beforeAll(async () => {
    scratch = await createTestStore('postgres');
    other = new pg.Client({ connectionString: postgresTestUrl });
    await other.connect();
    await other.query(`set search_path to ${scratch.pgSchema!}`);
  });
  afterAll(async () => {
    await other.end();
    await scratch.destroy();
  });

  const db = () => scratch.store.db;
  const count = async (query: ReturnType<typeof sql<{ n: number }>>): Promise<number> => Number((await query.execute(db())).rows[0].n);
  const indexedRows = (uid: string) => count(sql<{ n: number }>`select count(*)::int as n from message_search where uid = ${uid}`);
  const queuedRows = (uid: string) => count(sql<{ n: number }>`select count(*)::int as n from message_search_queue where uid = ${uid}`);

  /** A queued message, written as an import does. */
  async function queued(text: string): Promise<string> {
    const uid = newMessageUid(Date.now());
    await insertMessages(db(), [messageRow({ uid, chat_key: 'g:drain', team_id: 't:drain', from_user_id: 'u:drain', to_id: 'g:drain', timestamp: Date.now(), text })]);
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
