import { expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits, type Actor } from '../methods/chat-cast.js';
import { upload } from '../files/upload.js';

/** What a page of file matches says, in brief: each file's name, newest message first. */
const names = (page: { matches: Array<{ file: { name: string } }> }) => page.matches.map((match) => match.file.name);

/** search.files (docs/search.md "Files"): names matched, search.messages' scope and filters, paging. */
forEachDialect(
  'search.files',
  (t) => {
    const search = (actor: Actor, query: string, more: { cursor?: string; limit?: number } = {}) => actor.client.search.files({ query, ...more });
    /** Uploads each file as `actor` and sends them in one message to `to`; answers the message's uid and the files' ids. */
    const share = async (actor: Actor, to: string, files: string[], more: { visibleTo?: string[] } = {}) => {
      const ids: string[] = [];
      for (const name of files) {
        const { status, body } = await upload(t(), actor.token, name, `the bytes of ${name}`);
        expect(status, JSON.stringify(body)).toBe(200);
        ids.push(body.file.id);
      }
      const { uid } = await actor.client.chat.sendMessage({ to, text: `sharing ${files.join(', ')}`, files: ids, ...more });
      return { uid, ids };
    };

    it('finds files by any part of their name, in any case, with the message and chat they were found through', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { uid, ids } = await share(alice, channelId, ['Quarterly-Report.pdf', 'holiday photos.zip']);
      await share(alice, channelId, ['report-draft.txt']);
      expect(names(await search(bob, 'report'))).toEqual(['report-draft.txt', 'Quarterly-Report.pdf']);
      expect(names(await search(bob, 'QUARTER pdf'))).toEqual(['Quarterly-Report.pdf']);
      expect(names(await search(bob, 'report -draft'))).toEqual(['Quarterly-Report.pdf']);
      expect(names(await search(bob, 'photos'))).toEqual(['holiday photos.zip']);
      expect(names(await search(bob, 'spreadsheet'))).toEqual([]);
      const [match] = (await search(bob, 'quarterly')).matches;
      expect(match).toEqual({ file: (await bob.client.files.getInfo({ file: ids[0] })).file, messageUid: uid, chat: channelId, chatType: 'channel', joinable: false });
    });

    it('shows a file shared twice once, with the newest message the reader sees', async () => {
      const { alice, bob, carol, channelId } = await chatCast(t());
      const { ids } = await share(alice, channelId, ['minutes.txt']);
      const again = await alice.client.chat.sendMessage({ to: carol.id, text: 'for you', files: ids });
      expect((await search(alice, 'minutes')).matches.map((match) => [match.file.id, match.messageUid, match.chat, match.chatType])).toEqual([
        [ids[0], again.uid, carol.id, 'direct'],
      ]);
      // Bob does not see the direct chat: he finds it through the channel.
      expect((await search(bob, 'minutes')).matches.map((match) => [match.chat, match.chatType])).toEqual([[channelId, 'channel']]);
      expect((await search(carol, 'minutes')).matches.map((match) => [match.chat, match.chatType])).toEqual([[alice.id, 'direct']]);
    });

    it('pages with a cursor, files of one message included, without repeats or gaps', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const shared: string[] = [];
      for (let message = 0; message < 3; message += 1) shared.push(...(await share(alice, channelId, [`page-${message}-a.txt`, `page-${message}-b.txt`])).ids);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await search(bob, 'page', { limit: 4, ...(cursor ? { cursor } : {}) });
        seen.push(...page.matches.map((match) => match.file.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(pages).toBe(2);
      expect([...seen].sort()).toEqual([...shared].sort());
      expect(new Set(seen).size).toBe(6);
      await expectApiError(search(bob, 'page', { cursor: 'not-a-cursor' }), { error: 'InvalidParameter', parameter: 'cursor' });
    });

    it('takes search.messages’ filters, and refuses has:link with the reason', async () => {
      const { alice, bob, channelId } = await chatCast(t());
      const { id: other } = await alice.client.channels.create({ name: 'design', members: [bob.id] });
      await share(alice, channelId, ['mockup-general.txt']);
      await share(alice, other, ['mockup-design.txt']);
      await share(bob, alice.id, ['mockup-direct.txt']);
      expect(names(await search(bob, 'mockup in:#design'))).toEqual(['mockup-design.txt']);
      expect(names(await search(alice, 'in:#general'))).toEqual(['mockup-general.txt']);
      const bobName = (await t().testStore.store.db.selectFrom('users').select('email').where('id', '=', bob.id).executeTakeFirstOrThrow()).email!.split('@')[0];
      expect(names(await search(alice, `mockup from:@${bobName}`))).toEqual(['mockup-direct.txt']);
      expect(names(await search(alice, 'mockup before:2000-01-01'))).toEqual([]);
      await expectApiError(search(bob, 'mockup has:link'), { error: 'InvalidParameter', parameter: 'query', description: /has:link/ });
      await expectApiError(search(bob, 'mockup in:#nowhere'), { error: 'InvalidParameter', parameter: 'query', description: /#nowhere/ });
    });

    it('never another team’s file, one in a private channel one is not in or has left, or one visibleTo hides', async () => {
      const { alice, bob, carol, olga, channelId } = await chatCast(t());
      await share(olga, (await olga.client.channels.create({ name: 'theirs', type: 'public', members: [olga.id] })).id, ['secret-elsewhere.txt']);
      await share(alice, channelId, ['secret-for-bob.txt'], { visibleTo: [bob.id] });
      const { id: left } = await alice.client.channels.create({ name: 'leaving', members: [carol.id] });
      await share(alice, left, ['secret-before-leaving.txt']);
      expect(names(await search(carol, 'secret'))).toEqual(['secret-before-leaving.txt']);
      await carol.client.channels.removeMembers({ channelId: left, members: [carol.id] });
      expect(names(await search(carol, 'secret'))).toEqual([]);
      expect(names(await search(bob, 'secret'))).toEqual(['secret-for-bob.txt']);
      expect(names(await search(olga, 'secret'))).toEqual(['secret-elsewhere.txt']);
      // An upload no message carries yet is its uploader's alone, and not found by search.
      await upload(t(), alice.token, 'secret-unsent.txt', 'unsent');
      expect(names(await search(alice, 'secret'))).toEqual(['secret-before-leaving.txt', 'secret-for-bob.txt']);
    });

    it('finds the files of public channels one may join, marked joinable; a deleted file no more', async () => {
      const { alice, bob, carol, bot } = await chatCast(t());
      const { id: open } = await alice.client.channels.create({ name: 'open-files', type: 'public', members: [bob.id] });
      const { ids } = await share(alice, open, ['roadmap.txt']);
      expect((await search(carol, 'roadmap')).matches.map((match) => [match.chat, match.chatType, match.joinable])).toEqual([[open, 'channel', true]]);
      // A bot is a member of no channel: only its direct chats.
      expect(names(await search(bot, 'roadmap'))).toEqual([]);
      await alice.client.files.delete({ file: ids[0] });
      expect(names(await search(carol, 'roadmap'))).toEqual([]);
    });
  },
  roomyRateLimits,
);
