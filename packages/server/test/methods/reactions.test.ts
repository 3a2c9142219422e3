import { reactionLimits } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from './chat-cast.js';

/** reactions.add, reactions.remove, reactions.list, and the reactions chat.fetchMessages carries. */
forEachDialect(
  'reactions',
  (t) => {
    const cast = async () => {
      const c = await chatCast(t());
      const row = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', c.bob.id).executeTakeFirstOrThrow();
      return { ...c, bobSession: await sessionFor(t(), row) };
    };

    describe('adding and taking back', () => {
      it('counts each emoji once per person, says who and whether the caller reacted, and carries them in chat.fetchMessages', async () => {
        const { alice, bob, bobSession, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'ship it?' });
        const first = await alice.client.reactions.add({ messageUid: uid, emoji: '👍' });
        expect(first).toEqual({ messageUid: uid, reactions: [{ emoji: '👍', count: 1, userIds: [alice.id], me: true }] });
        const added = await bobSession.call('reactions.add', { messageUid: uid, emoji: '👍' });
        expect(added.status, JSON.stringify(added.body)).toBe(200);
        // The same emoji with a variation selector, as some emoji lists spell it, is the same reaction.
        await bobSession.call('reactions.add', { messageUid: uid, emoji: '👍\u{FE0F}' });
        await bobSession.call('reactions.add', { messageUid: uid, emoji: '👩🏽‍💻' });
        const seenByBob = await bob.client.reactions.list({ messageUid: uid });
        expect(seenByBob.reactions).toEqual([
          { emoji: '👍', count: 2, userIds: [bob.id, alice.id], me: true },
          { emoji: '👩🏽‍💻', count: 1, userIds: [bob.id], me: true },
        ]);
        const [message] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(message.reactions).toEqual([
          { emoji: '👍', count: 2, userIds: [alice.id, bob.id], me: true },
          { emoji: '👩🏽‍💻', count: 1, userIds: [bob.id], me: false },
        ]);
        const page = await alice.client.chat.fetchMessages({ chat: channelId });
        expect(page.find((shown) => shown.uid === uid)?.reactions).toEqual(message.reactions);

        const removed = await bobSession.call('reactions.remove', { messageUid: uid, emoji: '👍' });
        expect(removed.body.reactions[0]).toEqual({ emoji: '👍', count: 1, userIds: [alice.id], me: false });
        await bob.client.reactions.remove({ messageUid: uid, emoji: '👩🏽‍💻' });
        await bob.client.reactions.remove({ messageUid: uid, emoji: '👩🏽‍💻' });
        const [after] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(after.reactions).toEqual([{ emoji: '👍', count: 1, userIds: [alice.id], me: true }]);
      });

      it('lets a bot react in its direct chats, and names only the first reactors of a popular emoji', async () => {
        const { alice, bot, f, team, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bot.id, text: 'deploy' });
        expect((await bot.client.reactions.add({ messageUid: uid, emoji: '🚀' })).reactions).toMatchObject([{ emoji: '🚀', count: 1, me: true }]);

        const announcement = await alice.client.chat.sendMessage({ to: channelId, text: 'party' });
        const db = t().testStore.store.db;
        for (let index = 0; index < reactionLimits.maxUserIdsShown + 2; index++) {
          const person = await f.person(team.id);
          await db.insertInto('channel_members').values({ channel_id: channelId, user_id: person.id, affiliation: 'member', joined_at: Date.now() }).execute();
          const session = await sessionFor(t(), person);
          expect((await session.call('reactions.add', { messageUid: announcement.uid, emoji: '🎉' })).status).toBe(200);
        }
        const mine = await alice.client.reactions.add({ messageUid: announcement.uid, emoji: '🎉' });
        expect(mine.reactions[0]).toMatchObject({ count: reactionLimits.maxUserIdsShown + 3, me: true });
        expect(mine.reactions[0].userIds).toHaveLength(reactionLimits.maxUserIdsShown);
        expect(mine.reactions[0].userIds[0]).toBe(alice.id);
      });
    });

    describe('refusals', () => {
      it('refuses what is not one native emoji, naming the parameter', async () => {
        const { alice, bob } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'hi' });
        for (const emoji of [':thumbsup:', 'a', '1', '👍👍', '🎉'.repeat(20), '<img>']) {
          const refused = await t().call('reactions.add', { json: { messageUid: uid, emoji }, headers: { authorization: `Bearer ${alice.token}` } });
          expect(refused.status, emoji).toBe(400);
          expect(refused.body, emoji).toMatchObject({ error: 'InvalidParameter', parameter: 'emoji' });
        }
        const missing = await t().call('reactions.add', { json: { messageUid: uid }, headers: { authorization: `Bearer ${alice.token}` } });
        expect(missing.body).toMatchObject({ error: 'MissingParameter', parameter: 'emoji' });
      });

      it(`takes at most ${reactionLimits.maxDistinctEmoji} different emoji on one message`, async () => {
        const { alice, bob } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'react to me' });
        const emoji = [...'😀😁😂🤣😃😄😅😆😉😊😋😎😍😘🥰😗😙😚🙂🤗🤩🤔🤨😐😑😶🙄😏😣😥😮🤐😯😪😫🥱😴😌😛😜😝🤤😒😓😔😕🙃🤑😲🙁'];
        expect(emoji).toHaveLength(reactionLimits.maxDistinctEmoji);
        for (const one of emoji) await alice.client.reactions.add({ messageUid: uid, emoji: one });
        await expectApiError(bob.client.reactions.add({ messageUid: uid, emoji: '🐙' }), { error: 'InvalidParameter', parameter: 'emoji', description: /50 different reactions/ });
        // One already there still takes another person.
        expect((await bob.client.reactions.add({ messageUid: uid, emoji: '😀' })).reactions[0]).toMatchObject({ emoji: '😀', count: 2 });
      });

      it('answers a message in a chat the caller cannot read, or of another team, as an unknown one', async () => {
        const { alice, bot, dave, olga, f, team, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'private channel' });
        const daveClient = t().client((await f.install((await f.app(team.id, dave.id)).id, dave.id)).token);
        for (const client of [daveClient, olga.client, bot.client]) {
          await expectApiError(client.reactions.add({ messageUid: uid, emoji: '👀' }), { error: 'InvalidParameter', parameter: 'messageUid', description: /no message .* that you can see/ });
          await expectApiError(client.reactions.list({ messageUid: uid }), { error: 'InvalidParameter', parameter: 'messageUid' });
        }
        expect((await alice.client.reactions.list({ messageUid: uid })).reactions).toEqual([]);
      });
    });
  },
  roomyRateLimits,
);
