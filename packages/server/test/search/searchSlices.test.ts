import { parseSearchQuery } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { resolveFilters } from '../../src/core/search/searchFilters.js';
import { searchMessages } from '../../src/core/search/searchMessages.js';
import { DEFAULT_SLICING, widenUntilComplete, type Slicing } from '../../src/core/search/searchSlices.js';
import { newMessageUid } from '../../src/store/ids.js';
import { directChatKey, insertMessages, messageRow } from '../../src/store/rows/messages.js';
import { prng } from '../helpers/prng.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast } from '../methods/chat-cast.js';

describe('widenUntilComplete', () => {
  it('widens the slice until a step is complete, then searches the whole history', async () => {
    const depths: Array<number | undefined> = [];
    const walk = (completeAt: number | undefined) =>
      widenUntilComplete({ few: 0, phraseFew: 0, first: 2, widen: 3, largest: 20 }, async (depth) => {
        depths.push(depth);
        return { rows: [depth], complete: depth === completeAt };
      });
    expect(await walk(6)).toEqual([6]);
    expect(depths).toEqual([2, 6]);
    depths.length = 0;
    expect(await walk(undefined)).toEqual([undefined]);
    expect(depths).toEqual([2, 6, 18, undefined]);
  });
});

/** The walk: on PostgreSQL in slices of one message, widening twofold, so that every step is taken on a small history. */
const THIN: Slicing = { few: 0, phraseFew: 0, first: 1, widen: 2, largest: 1 << 20 };
/** The whole history at once: what the walk must agree with. */
const WHOLE: Slicing = { few: 0, phraseFew: 0, first: 1, widen: 2, largest: 0 };

/** search.messages' store query walking the index newest first (docs/search.md "How a search walks the index"): the same pages as a search of everything. */
forEachDialect('search in slices', (t) => {
  it('gives the same pages, each match once, as a search of the whole history, late-indexed messages and filters included', async () => {
    const { alice, bob, carol, team } = await cast();
    const db = t().testStore.store.db;
    const { id: general } = await alice.client.channels.create({ name: 'sliced', members: [bob.id, carol.id] });
    const { id: secret } = await alice.client.channels.create({ name: 'sliced-secret', type: 'private', members: [carol.id] });
    const chats = [general, general, secret, directChatKey(alice.id, bob.id), directChatKey(alice.id, carol.id)];
    const words = ['alpha', 'alpha', 'alpha', 'beta', 'beta', 'gamma', 'delta', 'echo', 'foxtrot'];
    const random = prng(34);
    const start = Date.now() - 10_000_000;
    const message = (at: number) => {
      const chat = random.pick(chats);
      const to = chat.includes('|') ? (chat.includes(carol.id) ? carol.id : bob.id) : chat;
      const text = Array.from({ length: 2 + random.int(5) }, () => random.pick(words)).join(' ');
      const hidden = random.int(10) === 0 ? JSON.stringify([carol.id]) : null;
      return messageRow({ uid: newMessageUid(at), chat_key: chat, team_id: team.id, from_user_id: alice.id, to_id: to, timestamp: at, text, visible_to: hidden });
    };
    await db.transaction().execute((tx) => insertMessages(tx, Array.from({ length: 240 }, (_, i) => message(start + 20_000 + i * 1000))));
    const reader = await db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
    await searchMessages(t().testStore.store, { reader, query: parse('alpha'), filters: await resolveFilters(db, reader, parse('alpha')), limit: 1 });
    // Sent after the others were indexed, older than all of them: on SQLite their index rows come last.
    await db.transaction().execute((tx) => insertMessages(tx, Array.from({ length: 15 }, (_, i) => message(start + i * 1000))));

    const pages = async (text: string, slicing: Slicing) => {
      const query = parse(text);
      const filters = await resolveFilters(db, reader, query);
      const seen: string[][] = [];
      let before: string | undefined;
      for (;;) {
        const found = await searchMessages(t().testStore.store, { reader, query, filters, before, limit: 7, slicing });
        seen.push(found.map((match) => match.row.uid));
        if (found.length < 7) return seen;
        before = found.at(-1)!.row.uid;
      }
    };
    for (const query of ['alpha', 'alpha beta', '"beta alpha"', 'gamma in:#sliced', 'alpha -beta', 'foxtrot in:#sliced']) {
      const whole = await pages(query, WHOLE);
      expect(whole.flat().length, query).toBeGreaterThan(7);
      expect(new Set(whole.flat()).size, query).toBe(whole.flat().length);
      expect(await pages(query, THIN), query).toEqual(whole);
      // The server's own: on PostgreSQL, a phrase this rare is searched whole at once, on the planner's estimate.
      expect(await pages(query, DEFAULT_SLICING), query).toEqual(whole);
    }
    // The late messages bob sees are found, in their place: the last of a common word's pages, the oldest.
    const alpha = (await pages('alpha', THIN)).flat();
    const lateAlpha = (await db.selectFrom('messages').select('uid').where('timestamp', '<', start + 20_000).where('text', 'like', '%alpha%').where('visible_to', 'is', null).where('chat_key', 'in', [general, directChatKey(alice.id, bob.id)]).execute()).map((row) => row.uid);
    expect(lateAlpha.length).toBeGreaterThan(0);
    expect(alpha.slice(-lateAlpha.length)).toEqual(lateAlpha.sort().reverse());
  });

  const cast = () => chatCast(t());
});

function parse(text: string) {
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.query;
}
