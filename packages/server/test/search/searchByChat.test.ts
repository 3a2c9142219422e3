import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { dialects } from '../helpers/dialects.js';
import { createTestStore } from '../helpers/store.js';

/** Migration 0035 (PostgreSQL): the index holds each message's chat, for the word index on (chat, words), as docs/search.md "The index" has it. */
it.skipIf(!dialects.includes('postgres'))('carries the messages indexed before it over with their chats, and keeps the chat of every message written after', async () => {
  const scratch = await createTestStore('postgres', { upTo: '0034_search_late_rows' });
  const { store } = scratch;
  try {
    const start = Date.now() - 60_000;
    const message = (i: number, chat: string, text: string) =>
      messageRow({ uid: newMessageUid(start + i * 1000), chat_key: chat, team_id: 't:searchbychat', from_user_id: 'u:searchbychat', to_id: chat, timestamp: start + i * 1000, text });
    const [inA, inB, other] = [message(0, 'g:a', 'kestrel over the field'), message(1, 'g:b', 'kestrel at dawn'), message(2, 'g:a', 'nothing here')];
    await insertMessages(store.db, [inA, inB, other]);
    await store.migrate();

    const chats = async () =>
      Object.fromEntries((await sql<{ uid: string; chat_key: string }>`select uid, chat_key from message_search`.execute(store.db)).rows.map((row) => [row.uid, row.chat_key]));
    const inChat = async (chat: string, word: string) =>
      (await sql<{ uid: string }>`select uid from message_search where chat_key = ${chat} and document @@ to_tsquery('simple', ${word}) order by uid`.execute(store.db)).rows.map((row) => row.uid);
    expect(await chats()).toEqual({ [inA.uid]: 'g:a', [inB.uid]: 'g:b', [other.uid]: 'g:a' });
    expect(await inChat('g:a', 'kestrel')).toEqual([inA.uid]);

    const later = message(3, 'g:b', 'a kestrel again');
    await insertMessages(store.db, [later]);
    // Indexed by the drain since migration 0040 (the trigger only queues it).
    await drainSearchQueue(store.db);
    await sql`update messages set text = 'a kestrel after all' where uid = ${other.uid}`.execute(store.db);
    await sql`update messages set chat_key = 'g:c' where uid = ${inB.uid}`.execute(store.db);
    expect(await chats()).toEqual({ [inA.uid]: 'g:a', [inB.uid]: 'g:c', [other.uid]: 'g:a', [later.uid]: 'g:b' });
    expect(await inChat('g:a', 'kestrel')).toEqual([inA.uid, other.uid]);
    expect(await inChat('g:b', 'kestrel')).toEqual([later.uid]);
    await sql`delete from messages where uid = ${inA.uid}`.execute(store.db);
    expect(await inChat('g:a', 'kestrel')).toEqual([other.uid]);
  } finally {
    await scratch.destroy();
  }
});
