import type { MessageModel } from '@aviary/protocol';
import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import { directChatKey } from '../../src/store/rows/messages.js';
import { shownPageQuery } from '../../src/core/queries/shownMessages.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast } from './chat-cast.js';

/**
 * History paging must cost the same on a chat of a million messages as on a short one. Timing that
 * belongs in a benchmark; here the database's own plan shows it: a range scan of the (chat_key, uid)
 * index in uid order, with no sort of the chat and no OFFSET. The table holds enough rows that the
 * planner would choose otherwise if the query allowed it. (A million rows would show the same plan, at
 * ten seconds of set-up on PostgreSQL.)
 */
const ROWS = 200_000;

/** Row n's uid: 26 digits, a valid uid that sorts by n. */
const uidOf = (n: number): string => String(n).padStart(26, '0');

forEachDialect('chat.fetchMessages on a long chat', (t) => {
  // Writing 200,000 rows (and their search index on PostgreSQL) takes tens of seconds on a loaded machine.
  it('pages by keyset on the chat index, deep in the history too', { timeout: 180_000 }, async () => {
    const { alice, bob } = await chatCast(t());
    const db = t().testStore.store.db;
    const chatKey = directChatKey(alice.id, bob.id);
    // Odd rows are Alice and Bob's chat, even rows another chat, interleaved as in a busy team.
    if (t().dialect === 'sqlite') {
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
        insert into messages (uid, chat_key, team_id, from_user_id, to_id, timestamp, text)
        select printf('%026d', i), case when i % 2 = 1 then ${chatKey} else 'g:otherchatxxxxxxx' end, 't', ${alice.id}, ${bob.id}, i, 'm' || i from n`.execute(db);
    } else {
      await sql`insert into messages (uid, chat_key, team_id, from_user_id, to_id, timestamp, text)
        select lpad(i::text, 26, '0'), case when i % 2 = 1 then ${chatKey} else 'g:otherchatxxxxxxx' end, 't', ${alice.id}, ${bob.id}, i, 'm' || i
        from generate_series(1, ${ROWS}) as i`.execute(db);
      await sql`analyze messages`.execute(db);
    }

    for (const page of [{ before: uidOf(3001), limit: 100 }, { after: uidOf(3001), limit: 100 }, { limit: 50 }]) {
      const query = shownPageQuery(db, chatKey, bob.id, page).compile();
      const explained = await db.executeQuery(CompiledQuery.raw(`explain ${t().dialect === 'sqlite' ? 'query plan ' : ''}${query.sql}`, [...query.parameters]));
      const plan = explained.rows.map((row) => Object.values(row as Record<string, unknown>).join(' ')).join('\n');
      // PostgreSQL may walk the primary key (uid) instead, filtering on the chat, when one chat is most of the table.
      expect(plan).toMatch(t().dialect === 'sqlite' ? /SEARCH messages USING INDEX messages_chat \(chat_key=\?/ : /Index Scan (Backward )?using messages_(chat|pkey)/);
      // What is shown beside each message (its pin, thread, whether it has reactions) is joined to the page's rows;
      // PostgreSQL may read (and sort) the near-empty tables of this test whole, as it would not large ones.
      expect(plan).not.toMatch(/TEMP B-TREE|Sort Key: messages\.|Seq Scan on messages|SCAN messages/);
    }

    const deep = await bob.client.chat.fetchMessages({ chat: alice.id, before: uidOf(3001), limit: 100 });
    const odd = (from: number, count: number) => Array.from({ length: count }, (_, index) => uidOf(from - 2 * index));
    expect(deep.map((message: MessageModel) => message.uid)).toEqual(odd(2999, 100));
    const forward = await bob.client.chat.fetchMessages({ chat: alice.id, after: uidOf(3001), limit: 3 });
    expect(forward.map((message: MessageModel) => message.uid)).toEqual(odd(3007, 3));
    const newest = await bob.client.chat.fetchMessages({ chat: alice.id, limit: 1 });
    expect(newest).toMatchObject([{ uid: uidOf(ROWS - 1), text: `m${ROWS - 1}`, timestamp: ROWS - 1 }]);
  });
});
