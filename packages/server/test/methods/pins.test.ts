import { pinLimits, StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneExpiredMessages } from '../../src/core/retention/pruneMessages.js';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream } from '../stream/harness.js';
import { chatCast, expectApiError, roomyRateLimits } from './chat-cast.js';

afterEach(closeStreams);

/** pins.* and saved.*, the pins chat.fetchMessages carries, and chat.fetchMessages' `around`. */
forEachDialect(
  'pins and saved items',
  (t) => {
    const cast = async () => {
      const c = await chatCast(t());
      const db = t().testStore.store.db;
      const row = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { ...c, aliceSession: await sessionFor(t(), await row(c.alice.id)), bobSession: await sessionFor(t(), await row(c.bob.id)), db };
    };

    describe('pins', () => {
      it('pins a message for the chat, says who and when, carries it in chat.fetchMessages, and unpins it', async () => {
        const { alice, bob, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'the plan' });
        const pinned = await bob.client.pins.add({ messageUid: uid });
        expect(pinned).toEqual({ messageUid: uid, pinned: { by: bob.id, at: expect.any(Number) } });
        // Pinning again changes nothing: still Bob's pin.
        expect((await alice.client.pins.add({ messageUid: uid })).pinned).toEqual(pinned.pinned);
        const { pins } = await alice.client.pins.list({ chat: channelId });
        expect(pins).toEqual([{ message: expect.objectContaining({ uid, text: 'the plan' }), pinned: pinned.pinned }]);
        const [message] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(message.pinned).toEqual(pinned.pinned);
        expect(await alice.client.pins.remove({ messageUid: uid })).toEqual({ messageUid: uid });
        expect(await alice.client.pins.remove({ messageUid: uid })).toEqual({ messageUid: uid });
        expect((await bob.client.pins.list({ chat: channelId })).pins).toEqual([]);
        const [after] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(after.pinned).toBeUndefined();
      });

      it('pins in a direct chat, for both of its people and nobody else', async () => {
        const { alice, bob, carol } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'address' });
        await bob.client.pins.add({ messageUid: uid });
        expect((await alice.client.pins.list({ chat: bob.id })).pins.map((pin) => pin.message.uid)).toEqual([uid]);
        expect((await carol.client.pins.list({ chat: alice.id })).pins).toEqual([]);
        await expectApiError(carol.client.pins.add({ messageUid: uid }), { error: 'InvalidParameter', parameter: 'messageUid' });
      });

      it('refuses a non-member and another team, as an unknown message or chat', async () => {
        const { alice, dave, olga, f, team, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'members only' });
        const daveClient = t().client((await f.install((await f.app(team.id, dave.id)).id, dave.id)).token);
        for (const client of [daveClient, olga.client]) {
          await expectApiError(client.pins.add({ messageUid: uid }), { error: 'InvalidParameter', parameter: 'messageUid', description: /no message .* that you can see/ });
          await expectApiError(client.pins.remove({ messageUid: uid }), { error: 'InvalidParameter', parameter: 'messageUid' });
          await expectApiError(client.pins.list({ chat: channelId }), { error: 'UnknownChat', parameter: 'chat' });
        }
      });

      it(`takes at most ${pinLimits.maxPinsPerChat} pins in one chat`, async () => {
        const { alice, bob, db, channelId } = await cast();
        const { uid: first } = await alice.client.chat.sendMessage({ to: channelId, text: 'first' });
        await alice.client.pins.add({ messageUid: first });
        // The other pins of the chat, written directly: the cap counts rows, whoever made them.
        const rows = Array.from({ length: pinLimits.maxPinsPerChat - 1 }, (_, index) => ({
          message_uid: `FAKE${String(index).padStart(22, '0')}`, chat_key: channelId, team_id: 'x', pinned_by: alice.id, pinned_at: index,
        }));
        await db.insertInto('pins').values(rows).execute();
        const { uid: extra } = await alice.client.chat.sendMessage({ to: channelId, text: 'one too many' });
        await expectApiError(bob.client.pins.add({ messageUid: extra }), { error: 'InvalidParameter', parameter: 'messageUid', description: /100 pinned messages/ });
        await bob.client.pins.remove({ messageUid: first });
        expect((await bob.client.pins.add({ messageUid: extra })).pinned.by).toBe(bob.id);
      });

      it('reaches the second person’s open stream live, and nobody outside the chat', async () => {
        const { team, channelId, aliceSession, bobSession } = await cast();
        const olga = await sessionFor(t(), await t().f.person(team.id));
        const streams = await Promise.all([aliceSession, bobSession, olga].map((who) => openStream(t(), who)));
        const { body: sent } = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'pin me' });
        expect((await aliceSession.call('pins.add', { messageUid: sent.uid })).status).toBe(200);
        await aliceSession.call('pins.add', { messageUid: sent.uid });
        await aliceSession.call('pins.remove', { messageUid: sent.uid });
        await fence(t(), team.id, aliceSession.user.id, streams);
        const ref = { uid: sent.uid, from: aliceSession.user.id, to: channelId };
        const seen = (index: number) => streams[index].data().filter((frame) => frame.type.startsWith('pin.'));
        const expected = [
          { type: 'pin.added', message: ref, userId: aliceSession.user.id, pinnedAt: expect.any(Number) },
          { type: 'pin.removed', message: ref, userId: aliceSession.user.id },
        ];
        expect(seen(1)).toMatchObject(expected);
        expect(seen(0)).toMatchObject(expected);
        expect(seen(2)).toEqual([]);
        for (const frame of streams.flatMap((stream) => stream.frames)) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
      });
    });

    describe('saved items', () => {
      it('keeps a person’s saved messages private, newest first, by keyset pages', async () => {
        const { alice, bob, channelId, aliceSession, bobSession } = await cast();
        const uids: string[] = [];
        for (const text of ['one', 'two', 'three']) uids.push((await alice.client.chat.sendMessage({ to: channelId, text })).uid);
        for (const uid of uids) expect((await aliceSession.call('saved.add', { messageUid: uid })).body).toEqual({ messageUid: uid, savedAt: expect.any(Number) });
        await aliceSession.call('saved.add', { messageUid: uids[0] });
        const first = await aliceSession.call('saved.list', { limit: 2 });
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        expect(first.body.items).toHaveLength(2);
        expect(first.body.nextCursor).toEqual(expect.any(String));
        const second = await aliceSession.call('saved.list', { limit: 2, cursor: first.body.nextCursor });
        const all = [...first.body.items, ...second.body.items].map((item: { message: { uid: string } }) => item.message.uid);
        expect(new Set(all)).toEqual(new Set(uids));
        expect(all).toHaveLength(3);
        expect(second.body.nextCursor).toBeUndefined();
        // Bob's list is his own.
        expect((await bobSession.call('saved.list', {})).body).toEqual({ items: [] });
        await aliceSession.call('saved.remove', { messageUid: uids[1] });
        expect((await aliceSession.call('saved.list', {})).body.items.map((item: { message: { uid: string } }) => item.message.uid)).not.toContain(uids[1]);
        // A token cannot reach saved items.
        const refused = await t().call('saved.list', { json: {}, headers: { authorization: `Bearer ${bob.token}` } });
        expect(refused.status).not.toBe(200);
      });

      it('leaves out a saved message of a channel the person left, and keeps direct chats', async () => {
        const { alice, bob, channelId, bobSession } = await cast();
        const inChannel = await alice.client.chat.sendMessage({ to: channelId, text: 'channel note' });
        const direct = await alice.client.chat.sendMessage({ to: bob.id, text: 'direct note' });
        await bobSession.call('saved.add', { messageUid: inChannel.uid });
        await bobSession.call('saved.add', { messageUid: direct.uid });
        const uidsOf = async () => (await bobSession.call('saved.list', {})).body.items.map((item: { message: { uid: string } }) => item.message.uid);
        expect(await uidsOf()).toEqual(expect.arrayContaining([direct.uid, inChannel.uid]));
        await alice.client.channels.removeMembers({ channelId, members: [bob.id] });
        expect(await uidsOf()).toEqual([direct.uid]);
      });

      it('refuses a message the person cannot see, and a bad cursor, naming the parameter', async () => {
        const { alice, team, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'members only' });
        const outsider = await sessionFor(t(), await t().f.person(team.id));
        const refused = await outsider.call('saved.add', { messageUid: uid });
        expect(refused.body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
        expect((await outsider.call('saved.remove', { messageUid: uid })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
        expect((await outsider.call('saved.list', { cursor: 'nope' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'cursor' });
      });
    });

    describe('a deleted message', () => {
      it('drops its pin and its saves, by chat.deleteMessage and by retention', async () => {
        const { alice, channelId, aliceSession, bobSession, db, team } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'gone soon' });
        await alice.client.pins.add({ messageUid: uid });
        await bobSession.call('saved.add', { messageUid: uid });
        await aliceSession.call('chat.deleteMessage', { messageUid: uid });
        expect(await db.selectFrom('pins').selectAll().where('message_uid', '=', uid).execute()).toEqual([]);
        expect(await db.selectFrom('saved_items').selectAll().where('message_uid', '=', uid).execute()).toEqual([]);

        const old = await alice.client.chat.sendMessage({ to: channelId, text: 'old' });
        await alice.client.pins.add({ messageUid: old.uid });
        await bobSession.call('saved.add', { messageUid: old.uid });
        await db.updateTable('teams').set({ message_retention_days: 1 }).where('id', '=', team.id).execute();
        expect((await pruneExpiredMessages(t().server.ctx, Date.now() + 3 * 86_400_000)).messages).toBeGreaterThan(0);
        expect(await db.selectFrom('pins').selectAll().where('message_uid', '=', old.uid).execute()).toEqual([]);
        expect(await db.selectFrom('saved_items').selectAll().where('message_uid', '=', old.uid).execute()).toEqual([]);
      });
    });

    describe('chat.fetchMessages around a message', () => {
      it('answers the page centred on it, newest first, even far back in history', async () => {
        const { alice, channelId } = await cast();
        const uids: string[] = [];
        for (let index = 0; index < 30; index++) uids.push((await alice.client.chat.sendMessage({ to: channelId, text: `m${index}` })).uid);
        const page = await alice.client.chat.fetchMessages({ chat: channelId, around: uids[5], limit: 5 });
        expect(page.map((message) => message.text)).toEqual(['m7', 'm6', 'm5', 'm4', 'm3']);
        const bad = await t().call('chat.fetchMessages', { json: { chat: channelId, around: uids[5], before: uids[9] }, headers: { authorization: `Bearer ${alice.token}` } });
        expect(bad.body).toMatchObject({ error: 'InvalidParameter', parameter: 'before' });
      });
    });
  },
  roomyRateLimits,
);
