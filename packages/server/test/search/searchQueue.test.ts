import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { reindexMessages } from '../../src/core/search/reindex.js';
import { drainSearchQueue } from '../../src/core/search/searchQueue.js';
import { newMessageUid } from '../../src/store/ids.js';
import { insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, roomyRateLimits } from '../methods/chat-cast.js';

/**
 * The index after the commit (migrations 0029 and 0040, docs/search.md "How the index is kept"): a new
 * message is queued in its transaction and indexed by a drain, many to a transaction; a search drains
 * first, so it finds what was sent before it. Edits and deletes of queued messages, and a reindex run,
 * leave each message in the index once, with its latest text.
 */
forEachDialect(
  'the search index after the commit',
  (t) => {
    const db = () => t().testStore.store.db;
    const sqlite = () => t().testStore.store.dialect === 'sqlite';
    /** How many messages the index itself holds with this word. */
    const indexed = async (word: string): Promise<number> => {
      const query = sqlite()
        ? sql<{ n: number }>`select count(*) as n from message_search where message_search match ${word}`
        : sql<{ n: number }>`select count(*)::int as n from message_search where document @@ to_tsquery('simple', ${word})`;
      return Number((await query.execute(db())).rows[0].n);
    };
    const queued = async (): Promise<number> => Number((await sql<{ n: number }>`select count(*) as n from message_search_queue`.execute(db())).rows[0].n);
    /** A message written straight into the store (as an import does), with a word of its own. */
    const write = async (chatKey: string, teamId: string, from: string, text: string): Promise<string> => {
      const uid = newMessageUid(Date.now());
      await insertMessages(db(), [messageRow({ uid, chat_key: chatKey, team_id: teamId, from_user_id: from, to_id: chatKey, timestamp: Date.now(), text })]);
      return uid;
    };

    it('finds a message right after its send returns, on every dialect', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      for (let i = 0; i < 5; i++) {
        const text = `heron${i} landed on the quay`;
        await alice.client.chat.sendMessage({ to: channelId, text });
        expect((await bob.client.search.messages({ query: `heron${i}` })).matches.map((match) => match.message.text)).toEqual([text]);
      }
    });

    it('indexes queued messages in the background, with nobody searching', async () => {
      const { alice, channelId, team } = await chatCast(t());
      const teamId = team.id;
      await write(channelId, teamId, alice.id, 'egret unsearched yet');
      // The server's drain runs every second (SEARCH_DRAIN_EVERY_MS): the queue empties without a search.
      await expect.poll(queued, { timeout: 10_000, interval: 50 }).toBe(0);
      expect(await indexed('egret')).toBe(1);
    });

    it('keeps a queued message that is edited or deleted in step: its latest text once, or nothing', async () => {
      const { alice, bob, channelId, team } = await chatCast(t());
      const teamId = team.id;
      const edited = await write(channelId, teamId, alice.id, 'plover draft text');
      await db().updateTable('messages').set({ text: 'plover final text' }).where('uid', '=', edited).execute();
      const deleted = await write(channelId, teamId, alice.id, 'sandpiper gone soon');
      await db().deleteFrom('messages').where('uid', '=', deleted).execute();
      await drainSearchQueue(db());
      expect(await queued()).toBe(0);
      expect([await indexed('draft'), await indexed('final'), await indexed('sandpiper')]).toEqual([0, 1, 0]);
      if (sqlite()) {
        const rows = await sql<{ n: number }>`select count(*) as n from message_search_rows where uid in (${edited}, ${deleted})`.execute(db());
        expect(Number(rows.rows[0].n)).toBe(1);
      }
      expect((await bob.client.search.messages({ query: 'plover' })).matches.map((match) => match.message.text)).toEqual(['plover final text']);
    });

    it('never indexes a message twice when a reindex run got to it before the drain', async () => {
      const { alice, channelId, team } = await chatCast(t());
      const teamId = team.id;
      await write(channelId, teamId, alice.id, 'curlew counted once');
      // `aviary search reindex` indexes the messages the index lacks, this one among them unless the
      // server's background drain got to it first.
      await reindexMessages(db(), { batchSize: 1000, restart: true });
      expect(await indexed('curlew')).toBe(1);
      await drainSearchQueue(db());
      expect(await indexed('curlew')).toBe(1);
    });

    it('never finds a queued message for someone who cannot see it', async () => {
      const { alice, bob, carol, team } = await chatCast(t());
      const { id: privateChannelId } = await alice.client.channels.create({ name: 'hideout', type: 'private', members: [bob.id] });
      const teamId = team.id;
      await write(privateChannelId, teamId, alice.id, 'bittern in the private channel');
      expect((await carol.client.search.messages({ query: 'bittern' })).matches).toEqual([]);
      expect((await alice.client.search.messages({ query: 'bittern' })).matches).toHaveLength(1);
    });
  },
  roomyRateLimits,
);
