import type { MessageModel } from '@aviary/protocol';
import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import type { UsersTable } from '../../src/store/schema.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { chatCast, expectApiError, NO_CHANNEL, NOBODY, roomyRateLimits, type Actor } from './chat-cast.js';

/** A well-formed uid that no message has. */
const NO_UID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

forEachDialect(
  'chat.fetchMessages',
  (t) => {
    const cast = () => chatCast(t());
    const userRow = (id: string): Promise<UsersTable> => t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /** Sends `count` messages through the same command the method uses (quicker than HTTP); uids oldest first. */
    async function seed(server: TestServer, from: Actor, to: string, count: number, visibleTo?: (index: number) => string[] | undefined): Promise<string[]> {
      const sender = await userRow(from.id);
      const uids: string[] = [];
      for (let index = 0; index < count; index++) {
        const { message } = await sendMessage(server.server.ctx, { user: sender, appId: null }, { to, text: `message ${index}`, visibleTo: visibleTo?.(index) });
        uids.push(message.uid);
      }
      return uids;
    }

    const uidsOf = (messages: MessageModel[]) => messages.map((message) => message.uid);

    describe('which chats', () => {
      it('answers UnknownChat for a channel the caller is not in, another team’s chat and no chat at all', async () => {
        const { alice, carol, bot, olga, channelId } = await cast();
        for (const [client, chat, description] of [
          [carol.client, channelId, /no channel g:\S+ in your team of which you are a member/],
          [bot.client, channelId, /of which you are a member/],
          [alice.client, NO_CHANNEL, /of which you are a member/],
          [alice.client, olga.id, /no user u:\S+ in your team to have a direct chat with/],
          [alice.client, NOBODY, /no user u:a{16} in your team/],
        ] as const) {
          await expectApiError(client.chat.fetchMessages({ chat }), { error: 'UnknownChat', parameter: 'chat', description });
        }
      });

      it('keeps each direct chat to its two people', async () => {
        const { alice, bob, carol } = await cast();
        const toBob = await alice.client.chat.sendMessage({ to: bob.id, text: 'for Bob' });
        const toCarol = await alice.client.chat.sendMessage({ to: carol.id, text: 'for Carol' });
        expect(uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id }))).toEqual([toBob.uid]);
        expect(uidsOf(await carol.client.chat.fetchMessages({ chat: alice.id }))).toEqual([toCarol.uid]);
        // Carol's chat with Bob is a different chat: Alice's messages are not in it.
        expect(await carol.client.chat.fetchMessages({ chat: bob.id })).toEqual([]);
      });

      it('reads a direct chat with a teammate who has since left', async () => {
        const { alice, f, team } = await cast();
        const leaver = await f.person(team.id);
        const { uid } = await alice.client.chat.sendMessage({ to: leaver.id, text: 'farewell' });
        await t().testStore.store.db.updateTable('users').set({ deactivated_at: Date.now() }).where('id', '=', leaver.id).execute();
        expect(uidsOf(await alice.client.chat.fetchMessages({ chat: leaver.id }))).toEqual([uid]);
      });
    });

    describe('by uid', () => {
      it('returns the messages asked for in the order asked, each once, skipping unknown and other chats’ uids', async () => {
        const { alice, bob, carol, channelId } = await cast();
        const [first, second, third] = await seed(t(), alice, bob.id, 3);
        const elsewhere = await alice.client.chat.sendMessage({ to: carol.id, text: 'not this chat' });
        const inChannel = await alice.client.chat.sendMessage({ to: channelId, text: 'nor this' });
        const fetched = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [third, NO_UID, first, elsewhere.uid, third, inChannel.uid, second] });
        expect(uidsOf(fetched)).toEqual([third, first, second]);
        expect(fetched[0].text).toBe('message 2');
      });

      it('takes uids as a JSON string or comma-separated in a form', async () => {
        const { alice, bob } = await cast();
        const [first, second] = await seed(t(), alice, bob.id, 2);
        for (const uids of [JSON.stringify([second, first]), `${second},${first}`]) {
          const answer = await t().call('chat.fetchMessages', { form: { token: bob.token, chat: alice.id, uids } });
          expect(answer.status).toBe(200);
          expect(answer.body.map((message: MessageModel) => message.uid)).toEqual([second, first]);
        }
      });

      it('takes at most 25 uids, and no paging beside them', async () => {
        const { alice, bob } = await cast();
        await expectApiError(bob.client.chat.fetchMessages({ chat: alice.id, uids: Array(26).fill(NO_UID) }), {
          error: 'InvalidParameter',
          parameter: 'uids',
          description: /at most 25 items; got 26/,
        });
        await expectApiError(bob.client.chat.fetchMessages({ chat: alice.id, uids: [NO_UID], limit: 5 }), {
          error: 'InvalidParameter',
          parameter: 'limit',
          description: /cannot be combined with uids/,
        });
        await expectApiError(bob.client.chat.fetchMessages({ chat: alice.id, uids: ['not-a-uid'] }), { error: 'InvalidParameter', parameter: 'uids' });
      });
    });

    describe('history', () => {
      it('pages back with before, newest first, without gaps or repeats', async () => {
        const { alice, bob } = await cast();
        const sent = await seed(t(), alice, bob.id, 120);
        const newestFirst = [...sent].reverse();
        const firstPage = await bob.client.chat.fetchMessages({ chat: alice.id });
        expect(uidsOf(firstPage)).toEqual(newestFirst.slice(0, 50)); // the default page size

        const seen: string[] = [];
        let before: string | undefined;
        for (;;) {
          const page = uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id, limit: 45, ...(before ? { before } : {}) }));
          if (page.length === 0) break;
          seen.push(...page);
          before = page.at(-1);
        }
        expect(seen).toEqual(newestFirst);
      });

      it('pages forward with after: the messages right after it, newest first', async () => {
        const { alice, bob } = await cast();
        const sent = await seed(t(), alice, bob.id, 70);
        const page = uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id, after: sent[9], limit: 20 }));
        expect(page).toEqual(sent.slice(10, 30).reverse());

        const seen: string[] = [];
        let after = sent[0];
        for (;;) {
          const next = uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id, after, limit: 25 }));
          if (next.length === 0) break;
          seen.unshift(...next);
          after = next[0];
        }
        expect(seen).toEqual(sent.slice(1).reverse());
      });

      it('returns the window between after and before, and takes limit up to 100', async () => {
        const { alice, bob } = await cast();
        const sent = await seed(t(), alice, bob.id, 105);
        expect(uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id, after: sent[2], before: sent[7] }))).toEqual(sent.slice(3, 7).reverse());
        expect(await bob.client.chat.fetchMessages({ chat: alice.id, after: sent[7], before: sent[2] })).toEqual([]);
        expect(uidsOf(await bob.client.chat.fetchMessages({ chat: alice.id, limit: 100 }))).toEqual(sent.slice(5).reverse());
        for (const limit of ['0', '101', 'ten']) {
          const answer = await t().call('chat.fetchMessages', { query: { token: bob.token, chat: alice.id, limit } });
          expect(answer.body).toMatchObject({ error: 'InvalidParameter', parameter: 'limit' });
        }
        const badCursor = await t().call('chat.fetchMessages', { query: { token: bob.token, chat: alice.id, before: 'yesterday' } });
        expect(badCursor.body).toMatchObject({ error: 'InvalidParameter', parameter: 'before', description: expect.stringContaining('a message uid') });
      });

      it('reads a channel’s history in full from every member', async () => {
        const { alice, bob, channelId } = await cast();
        const fromAlice = await seed(t(), alice, channelId, 3);
        const fromBob = await seed(t(), bob, channelId, 2);
        const expected = [...fromAlice, ...fromBob].reverse();
        expect(uidsOf(await alice.client.chat.fetchMessages({ chat: channelId }))).toEqual(expected);
        expect(uidsOf(await bob.client.chat.fetchMessages({ chat: channelId }))).toEqual(expected);
      });
    });

    describe('visibleTo', () => {
      it('shows a restricted message to its sender and those listed, and hides it from other members', async () => {
        const { alice, bob, carol, channelId } = await cast();
        await alice.client.channels.addMembers({ channelId, members: [carol.id] });
        const open = await alice.client.chat.sendMessage({ to: channelId, text: 'for all' });
        const secret = await alice.client.chat.sendMessage({ to: channelId, text: 'only Bob', visibleTo: [bob.id] });
        for (const reader of [alice, bob]) {
          expect(uidsOf(await reader.client.chat.fetchMessages({ chat: channelId }))).toEqual([secret.uid, open.uid]);
        }
        expect(uidsOf(await carol.client.chat.fetchMessages({ chat: channelId }))).toEqual([open.uid]);
        expect(await carol.client.chat.fetchMessages({ chat: channelId, uids: [secret.uid] })).toEqual([]);
      });

      it('hides a restricted direct message from the other side when not listed', async () => {
        const { alice, bob } = await cast();
        const note = await alice.client.chat.sendMessage({ to: bob.id, text: 'note to self', visibleTo: [alice.id] });
        expect(uidsOf(await alice.client.chat.fetchMessages({ chat: bob.id }))).toEqual([note.uid]);
        expect(await bob.client.chat.fetchMessages({ chat: alice.id })).toEqual([]);
      });

      it('fills a page with visible messages however many hidden ones lie between', async () => {
        const { alice, bob, carol, channelId } = await cast();
        await alice.client.channels.addMembers({ channelId, members: [carol.id] });
        const sent = await seed(t(), alice, channelId, 40, (index) => (index % 4 === 0 ? undefined : [bob.id]));
        const visibleToCarol = sent.filter((_, index) => index % 4 === 0).reverse();
        const first = uidsOf(await carol.client.chat.fetchMessages({ chat: channelId, limit: 6 }));
        expect(first).toEqual(visibleToCarol.slice(0, 6));
        const second = uidsOf(await carol.client.chat.fetchMessages({ chat: channelId, limit: 6, before: first.at(-1) }));
        expect(second).toEqual(visibleToCarol.slice(6));
      });
    });
  },
  roomyRateLimits,
);
