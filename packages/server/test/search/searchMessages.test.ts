import { describe, expect, it } from 'vitest';
import { prng } from '../helpers/prng.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits, type Actor } from '../methods/chat-cast.js';
import { upload } from '../files/upload.js';

/** What a page of matches says, in brief: each match's text, newest first. */
const texts = (page: { matches: Array<{ message: { text: string } }> }) => page.matches.map((match) => match.message.text);

/** search.messages (docs/search.md): the index, the syntax, the paging and who sees what. */
forEachDialect(
  'search.messages',
  (t) => {
    const cast = () => chatCast(t());
    const search = (actor: Actor, query: string, more: { cursor?: string; limit?: number } = {}) => actor.client.search.messages({ query, ...more });
    const send = async (actor: Actor, to: string, text: string, more: { visibleTo?: string[] } = {}) =>
      (await actor.client.chat.sendMessage({ to, text, ...more })).uid;
    const emailName = async (actor: Actor) =>
      (await t().testStore.store.db.selectFrom('users').select('email').where('id', '=', actor.id).executeTakeFirstOrThrow()).email!.split('@')[0];

    describe('matching', () => {
      it('finds words without regard to accents or case, and word beginnings, with the match marked', async () => {
        const { alice, bob, channelId } = await cast();
        const uid = await send(alice, channelId, 'Le Café est prêt, venez déjeuner');
        await send(alice, channelId, 'Nothing to see here');
        for (const query of ['cafe', 'CAFÉ', 'caf', 'pret dejeuner', 'déjeuner']) {
          const page = await search(bob, query);
          expect(page.matches.map((match) => match.message.uid), query).toEqual([uid]);
        }
        const [match] = (await search(bob, 'venez')).matches;
        expect(match).toMatchObject({ chat: channelId, chatType: 'channel', joinable: false, message: { uid, from: alice.id } });
        expect(match.snippet.filter((part) => part.match).map((part) => part.text)).toEqual(['venez']);
        expect(match.snippet.map((part) => part.text).join('')).toBe('Le Café est prêt, venez déjeuner');
      });

      it('matches quoted phrases in order, and leaves out excluded words and phrases', async () => {
        const { alice, bob, channelId } = await cast();
        await send(alice, channelId, 'the release notes are out');
        await send(alice, channelId, 'notes about the release');
        await send(alice, channelId, 'deploy to staging tonight');
        await send(alice, channelId, 'deploy to production tonight');
        expect(texts(await search(bob, '"release notes"'))).toEqual(['the release notes are out']);
        expect(texts(await search(bob, 'release notes'))).toEqual(['notes about the release', 'the release notes are out']);
        expect(texts(await search(bob, 'deploy -staging'))).toEqual(['deploy to production tonight']);
        expect(texts(await search(bob, 'tonight -"to production"'))).toEqual(['deploy to staging tonight']);
      });

      it('finds a word inside longer words on PostgreSQL (trigrams) when it is nowhere a word, only at their start on SQLite', async () => {
        const { alice, bob, channelId } = await cast();
        await send(alice, channelId, 'redeployed on friday');
        expect(texts(await search(bob, 'redeploy'))).toEqual(['redeployed on friday']);
        expect(texts(await search(bob, 'ployed'))).toEqual(t().dialect === 'postgres' ? ['redeployed on friday'] : []);
        // Two letters are too few for trigrams: a word beginning only.
        expect(texts(await search(bob, 'ed'))).toEqual([]);
      });

      it('on PostgreSQL looks inside longer words only for a word the reader finds nowhere as a word, on every page', async () => {
        const { alice, bob, carol, olga, channelId } = await cast();
        const inside: string[] = [];
        for (let i = 0; i < 5; i++) inside.push(await send(alice, channelId, `redeployed build ${i}`));
        await send(alice, channelId, 'a build without the word');
        // As a word, the reader finds it nowhere: matches elsewhere (a chat bob is not in, another team) do not count.
        const { id: theirs } = await alice.client.channels.create({ name: 'theirs', type: 'private', members: [carol.id] });
        await send(alice, theirs, 'eployment of carol');
        await send(olga, (await olga.client.channels.create({ name: 'elsewhere', members: [olga.id] })).id, 'eployment elsewhere');
        const newestFirst = [...inside].reverse();
        const uids = async (query: string, more: { cursor?: string; limit?: number } = {}) => (await search(bob, query, more)).matches.map((match) => match.message.uid);
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await search(bob, 'eploy', { limit: 2, cursor });
          pages.push(page.matches.map((match) => match.message.uid));
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages.length < 10);
        expect(pages).toEqual(t().dialect === 'postgres' ? [newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)] : [[]]);
        // Each word on its own: `build` is a word, `eploy` is looked for inside words.
        expect(await uids('eploy build')).toEqual(t().dialect === 'postgres' ? newestFirst : []);
        // Once a message the reader may read holds it as a word (beginning), those are all its matches.
        const own = await send(alice, channelId, 'eployment is not a word');
        expect(await uids('eploy')).toEqual([own]);
        expect(await uids('eploy build')).toEqual([]);
        // A page after the last match as words is the end: the search does not go on inside longer words.
        expect(await uids('eploy', { cursor: own })).toEqual([]);
        // The filters count: in a chat where it is nowhere a word, it is looked for inside words.
        const direct = await send(alice, bob.id, 'redeployed between us');
        expect(await uids(`eploy in:@${await emailName(alice)}`)).toEqual(t().dialect === 'postgres' ? [direct] : []);
      });

      it('reads hostile queries as words, never as the index’s syntax', async () => {
        const { alice, bob, channelId } = await cast();
        await send(alice, channelId, 'AND OR NOT NEAR star * quote " end');
        for (const query of ['"', '""', 'NEAR(', 'star*', '* quote', 'AND OR', '-"', '\\', "o'brien", ':', 'a:b', '(', '^star', 'col:umn', 'from:@a\u0000b', 'in:#x\u0000', 'star \u0000', '\u0301\u0301\u0301', '-\u0301 star']) {
          const outcome = await search(bob, query).then(
            () => 200,
            (error: unknown) => (error as { status: number }).status,
          );
          expect([200, 400], query).toContain(outcome);
        }
        // And random ones, from a pool of syntax, marks, scripts and filter words (seeded: a failure replays).
        const random = prng(24);
        const pool = ['"', '-', '*', ':', '#', '@', ' ', '(', ')', '^', '\u0301', '\u0000', 'é', 'ß', 'ǅ', '日本', 'ا', '١', 'in:', 'from:', 'on:', 'has:', 'NEAR', 'OR', 'a', 'star'];
        for (let i = 0; i < 60; i++) {
          const query = Array.from({ length: 1 + random.int(12) }, () => random.pick(pool)).join('');
          const outcome = await search(bob, query).then(
            () => 200,
            (error: unknown) => (error as { status: number }).status,
          );
          expect([200, 400], JSON.stringify(query)).toContain(outcome);
        }
        expect(texts(await search(bob, 'AND OR NOT NEAR'))).toEqual(['AND OR NOT NEAR star * quote " end']);
        expect(texts(await search(bob, 'star*'))).toHaveLength(1);
      });

      it('refuses a query with nothing to look for, an unreadable filter, or too many terms, naming the query', async () => {
        const { bob } = await cast();
        for (const query of ['-alone', '"" ...', 'before:2026-02-30', 'has:pictures', 'in:general', 'in:#nowhere', 'from:@nobody-here', Array(25).fill('w').join(' ')]) {
          await expectApiError(search(bob, query), { error: 'InvalidParameter', parameter: 'query' });
        }
      });
    });

    describe('filters', () => {
      it('in:#channel and in:@person keep to those chats; from:@person to the sender, by email or first name', async () => {
        const { alice, bob, carol, channelId } = await cast();
        const { id: other } = await alice.client.channels.create({ name: 'random', members: [bob.id, carol.id] });
        await send(alice, channelId, 'lunch in general');
        await send(carol, other, 'lunch in random');
        await send(alice, bob.id, 'lunch for two');
        expect(texts(await search(bob, 'lunch in:#general'))).toEqual(['lunch in general']);
        expect(texts(await search(bob, `lunch in:@${await emailName(alice)}`))).toEqual(['lunch for two']);
        expect(texts(await search(bob, `lunch from:@${await emailName(carol)}`))).toEqual(['lunch in random']);
        expect(texts(await search(bob, 'lunch in:#general in:#random'))).toEqual(['lunch in random', 'lunch in general']);
        expect(texts(await search(bob, `from:@${await emailName(alice)} in:#general`))).toEqual(['lunch in general']);
        await t().testStore.store.db.updateTable('users').set({ first_name: 'Alessandra', last_name: 'Rossi' }).where('id', '=', alice.id).execute();
        expect(texts(await search(bob, 'lunch from:@alessandra'))).toEqual(['lunch for two', 'lunch in general']);
        expect(texts(await search(bob, 'lunch from:@Alessandra.Rossi'))).toEqual(['lunch for two', 'lunch in general']);
      });

      it('has:link finds messages with a link; has:file those that carry files', async () => {
        const { alice, bob, channelId } = await cast();
        await send(alice, channelId, 'notes at https://example.com/notes');
        await send(alice, channelId, 'notes to follow');
        expect(texts(await search(bob, 'notes has:link'))).toEqual(['notes at https://example.com/notes']);
        expect(texts(await search(bob, 'notes has:file'))).toEqual([]);
        const { body } = await upload(t(), alice.token, 'notes.txt', 'the notes');
        await alice.client.chat.sendMessage({ to: channelId, text: 'notes attached', files: [body.file.id] });
        expect(texts(await search(bob, 'notes has:file'))).toEqual(['notes attached']);
      });

      it('before:, after: and on: take days in the searcher’s time zone', async () => {
        const { alice, bob, channelId } = await cast();
        const db = t().testStore.store.db;
        await db.updateTable('users').set({ timezone: 'Australia/Brisbane' }).where('id', '=', bob.id).execute();
        const at = (iso: string, text: string) => ({ iso, text });
        const sent = [at('2026-03-01T13:00:00Z', 'standup one'), at('2026-03-01T15:00:00Z', 'standup two'), at('2026-03-02T15:00:00Z', 'standup three')];
        for (const message of sent) {
          const uid = await send(alice, channelId, message.text);
          await db.updateTable('messages').set({ timestamp: Date.parse(message.iso) }).where('uid', '=', uid).execute();
        }
        // In +10:00, 13:00Z on March 1st is still March 1st; 15:00Z is March 2nd; the next 15:00Z March 3rd.
        expect(texts(await search(bob, 'standup on:2026-03-01'))).toEqual(['standup one']);
        expect(texts(await search(bob, 'standup on:2026-03-02'))).toEqual(['standup two']);
        expect(texts(await search(bob, 'standup before:2026-03-03'))).toEqual(['standup two', 'standup one']);
        expect(texts(await search(bob, 'standup after:2026-03-02'))).toEqual(['standup three']);
        expect(texts(await search(bob, 'after:2026-03-01 before:2026-03-03'))).toEqual(['standup two']);
      });
    });

    it('pages newest first with a cursor, each match once', async () => {
      const { alice, bob, channelId } = await cast();
      const uids: string[] = [];
      for (let i = 0; i < 5; i++) uids.push(await send(alice, channelId, `paging test ${i}`));
      await send(alice, channelId, 'something else');
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await search(bob, 'paging', { limit: 2, cursor });
        seen.push(...page.matches.map((match) => match.message.uid));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual([...uids].reverse());
      expect(pages).toBe(3);
    });

    describe('who sees what', () => {
      it('never another team, a private channel one is not in, one left, or a message visibleTo hides', async () => {
        const { alice, bob, carol, olga, channelId } = await cast();
        await send(olga, (await olga.client.channels.create({ name: 'theirs', type: 'public', members: [olga.id] })).id, 'secret plans from elsewhere');
        await send(alice, channelId, 'secret plans for bob only', { visibleTo: [bob.id] });
        const { id: left } = await alice.client.channels.create({ name: 'leaving', members: [carol.id] });
        await send(alice, left, 'secret plans before carol left');
        expect(texts(await search(carol, 'secret'))).toEqual(['secret plans before carol left']);
        await carol.client.channels.removeMembers({ channelId: left, members: [carol.id] });
        expect(texts(await search(carol, 'secret'))).toEqual([]);
        expect(texts(await search(bob, 'secret'))).toEqual(['secret plans for bob only']);
        expect(texts(await search(alice, 'secret'))).toEqual(['secret plans before carol left', 'secret plans for bob only']);
      });

      it('finds the public channels one may join, marked joinable, and a direct chat as the other person', async () => {
        const { alice, bob, carol } = await cast();
        const { id: open } = await alice.client.channels.create({ name: 'open-to-all', type: 'public', members: [bob.id] });
        await send(alice, open, 'welcome everyone');
        await send(alice, carol.id, 'welcome carol');
        const found = (await search(carol, 'welcome')).matches;
        expect(found.map((match) => [match.message.text, match.chat, match.chatType, match.joinable])).toEqual([
          ['welcome carol', alice.id, 'direct', false],
          ['welcome everyone', open, 'channel', true],
        ]);
        expect((await search(bob, 'welcome')).matches.map((match) => match.message.text)).toEqual(['welcome everyone']);
      });

      it('gives a bot its own direct chats only', async () => {
        const { alice, bot, channelId } = await cast();
        await send(alice, channelId, 'ping from the channel');
        await send(alice, bot.id, 'ping the bot');
        expect(texts(await search(bot, 'ping'))).toEqual(['ping the bot']);
      });
    });

    describe('kept in step', () => {
      it('follows edits and deletes', async () => {
        const { alice, bob, channelId } = await cast();
        const uid = await send(alice, channelId, 'first draft wording');
        await alice.client.chat.updateMessage({ messageUid: uid, text: 'final version' });
        expect(texts(await search(bob, 'draft'))).toEqual([]);
        expect(texts(await search(bob, 'final'))).toEqual(['final version']);
        await t().testStore.store.db.deleteFrom('messages').where('uid', '=', uid).execute();
        expect(texts(await search(bob, 'final'))).toEqual([]);
      });
    });
  },
  roomyRateLimits,
);
