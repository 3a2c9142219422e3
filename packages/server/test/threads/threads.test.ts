import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { CompiledQuery } from 'kysely';
import { shownPageQuery } from '../../src/core/queries/shownMessages.js';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { closeStreams, fence, openStream } from '../stream/harness.js';

afterEach(closeStreams);

/** Threads: replies by chat.sendMessage, pages by chat.fetchMessages, following by threads.*, frames, deletes and bots. */
forEachDialect(
  'threads',
  (t) => {
    const cast = async () => {
      const c = await chatCast(t());
      const db = t().testStore.store.db;
      const row = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { ...c, aliceSession: await sessionFor(t(), await row(c.alice.id)), bobSession: await sessionFor(t(), await row(c.bob.id)), db };
    };

    describe('replies', () => {
      it('keeps plain replies out of the channel’s history, shows those also sent to it, and summarises them under the parent', async () => {
        const { alice, bob, channelId } = await cast();
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'lunch?' });
        const first = await bob.client.chat.sendMessage({ to: channelId, text: 'yes', threadParent: parent });
        const second = await alice.client.chat.sendMessage({ to: channelId, text: 'noon then', threadParent: parent, alsoInChannel: true });
        const history = await bob.client.chat.fetchMessages({ chat: channelId });
        expect(history.map((message) => message.text)).toEqual(['noon then', 'lunch?']);
        expect(history[0]).toMatchObject({ threadParent: parent, alsoInChannel: true });
        expect(history[1].thread).toEqual({ replyCount: 2, participants: [alice.id, bob.id], lastReplyUid: second.uid, lastReplyAt: expect.any(Number) });
        const thread = await bob.client.chat.fetchMessages({ chat: channelId, thread: parent });
        expect(thread.map((message) => [message.uid, message.threadParent])).toEqual([[second.uid, parent], [first.uid, parent]]);
        expect(thread[1].alsoInChannel).toBeUndefined();
        // A reply to a reply joins the root's thread; naming a reply as `thread` reads the same thread.
        const third = await bob.client.chat.sendMessage({ to: channelId, text: 'ok', threadParent: first.uid });
        const [byReply] = await alice.client.chat.fetchMessages({ chat: channelId, thread: first.uid, limit: 1 });
        expect(byReply).toMatchObject({ uid: third.uid, threadParent: parent });
      });

      it('pages a thread both ways by cursor', async () => {
        const { alice, channelId } = await cast();
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'count' });
        const uids: string[] = [];
        for (let index = 0; index < 7; index++) uids.push((await alice.client.chat.sendMessage({ to: channelId, text: `r${index}`, threadParent: parent })).uid);
        const newest = await alice.client.chat.fetchMessages({ chat: channelId, thread: parent, limit: 3 });
        expect(newest.map((message) => message.text)).toEqual(['r6', 'r5', 'r4']);
        const older = await alice.client.chat.fetchMessages({ chat: channelId, thread: parent, before: newest[2].uid, limit: 3 });
        expect(older.map((message) => message.text)).toEqual(['r3', 'r2', 'r1']);
        const newer = await alice.client.chat.fetchMessages({ chat: channelId, thread: parent, after: uids[0], limit: 2 });
        expect(newer.map((message) => message.text)).toEqual(['r2', 'r1']);
        // Around a reply, the thread named by any of its messages.
        const around = await alice.client.chat.fetchMessages({ chat: channelId, thread: uids[0], around: uids[3], limit: 3 });
        expect(around.map((message) => message.text)).toEqual(['r4', 'r3', 'r2']);
        const byReply = await alice.client.chat.fetchMessages({ chat: channelId, thread: uids[6], before: uids[2], limit: 5 });
        expect(byReply.map((message) => message.text)).toEqual(['r1', 'r0']);
        expect((await alice.client.chat.fetchMessages({ chat: channelId })).map((message) => message.text)).toEqual(['count']);
      });

      it('reads a thread by its own index', async () => {
        const { alice, channelId, db } = await cast();
        const query = shownPageQuery(db, channelId, alice.id, { thread: '01M8EHWX88GG2ZKRANGRD2XXEB', before: '01M8EHWX88GG2ZKRANGRD2XXEC', limit: 50 }).compile();
        const explained = await db.executeQuery(CompiledQuery.raw(`explain ${t().dialect === 'sqlite' ? 'query plan ' : ''}${query.sql}`, [...query.parameters]));
        const plan = explained.rows.map((row) => Object.values(row as Record<string, unknown>).join(' ')).join('\n');
        expect(plan).toMatch(/messages_by_thread/);
        expect(plan).not.toMatch(/TEMP B-TREE|Sort Key: messages\.|Seq Scan on messages/);
      });

      it('refuses a parent the sender cannot see, in another chat, deleted, or shown to some only, naming threadParent', async () => {
        const { alice, bob, carol, olga, bot, channelId, aliceSession } = await cast();
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'members only' });
        const direct = await alice.client.chat.sendMessage({ to: bob.id, text: 'just us' });
        await expectApiError(alice.client.chat.sendMessage({ to: carol.id, text: 'elsewhere', threadParent: parent }), { error: 'InvalidParameter', parameter: 'threadParent', description: /another chat/ });
        await expectApiError(carol.client.chat.sendMessage({ to: alice.id, text: 'peek', threadParent: parent }), { error: 'InvalidParameter', parameter: 'threadParent', description: /no message .* that you can see/ });
        await expectApiError(olga.client.chat.sendMessage({ to: olga.id, text: 'peek', threadParent: parent }), { error: 'InvalidParameter', parameter: 'threadParent', description: /no message .* that you can see/ });
        await expectApiError(carol.client.chat.sendMessage({ to: bob.id, text: 'peek', threadParent: direct.uid }), { error: 'InvalidParameter', parameter: 'threadParent', description: /no message .* that you can see/ });
        await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'wrong chat', threadParent: direct.uid }), { error: 'InvalidParameter', parameter: 'threadParent', description: /another chat/ });
        await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'lost', alsoInChannel: true }), { error: 'InvalidParameter', parameter: 'alsoInChannel' });
        const secret = await bot.client.chat.sendMessage({ to: alice.id, text: 'only you', visibleTo: [alice.id] });
        await expectApiError(alice.client.chat.sendMessage({ to: bot.id, text: 're', threadParent: secret.uid }), { error: 'InvalidParameter', parameter: 'threadParent', description: /shown to only some/ });
        // Nor is a reply shown to only some: the thread's summary and markers are everyone's who sees the parent.
        await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'for alice only', threadParent: parent, visibleTo: [alice.id] }), { error: 'InvalidParameter', parameter: 'visibleTo', description: /thread reply/ });
        expect((await alice.client.chat.fetchMessages({ chat: channelId, uids: [parent] }))[0].thread).toBeUndefined();
        await bob.client.chat.sendMessage({ to: channelId, text: 'keep it', threadParent: parent });
        expect((await aliceSession.call('chat.deleteMessage', { messageUid: parent })).status).toBe(200);
        await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'too late', threadParent: parent }), { error: 'InvalidParameter', parameter: 'threadParent', description: /deleted/ });
        await expectApiError(bob.client.chat.fetchMessages({ chat: channelId, thread: direct.uid }), { error: 'InvalidParameter', parameter: 'thread' });
      });
    });

    describe('following', () => {
      it('follows the author, repliers and the people mentioned; lists unread threads; reads, unfollows and follows again', async () => {
        const { alice, bob, carol, channelId, aliceSession, bobSession } = await cast();
        await alice.client.channels.addMembers({ channelId, members: [carol.id] });
        const carolSession = await sessionFor(t(), await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', carol.id).executeTakeFirstOrThrow());
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'plan' });
        const reply = await bob.client.chat.sendMessage({ to: channelId, text: 'see @carol', threadParent: parent, mentions: [carol.id] });
        const listed = async (session: typeof aliceSession) => (await session.call('threads.list', {})).body;
        expect(await listed(aliceSession)).toEqual({ threads: [{ message: expect.objectContaining({ uid: parent, thread: expect.objectContaining({ replyCount: 1 }) }), following: true, unread: true }] });
        // Bob's own reply marks the thread read for him.
        expect((await listed(bobSession)).threads).toEqual([expect.objectContaining({ following: true, readUpTo: reply.uid, unread: false })]);
        expect((await listed(carolSession)).threads).toEqual([expect.objectContaining({ unread: true })]);
        expect((await aliceSession.call('threads.markRead', { messageUid: parent })).body).toEqual({ messageUid: parent, following: true, readUpTo: reply.uid });
        expect((await listed(aliceSession)).threads[0].unread).toBe(false);
        expect((await aliceSession.call('threads.markRead', { messageUid: parent, uid: parent })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'uid' });
        // The author unfollows: a new reply does not follow them again; their own reply does.
        expect((await aliceSession.call('threads.unfollow', { messageUid: reply.uid })).body).toEqual({ messageUid: parent, following: false, readUpTo: reply.uid });
        await bob.client.chat.sendMessage({ to: channelId, text: 'again', threadParent: parent });
        expect(await listed(aliceSession)).toEqual({ threads: [] });
        await alice.client.chat.sendMessage({ to: channelId, text: 'fine', threadParent: parent });
        expect((await listed(aliceSession)).threads).toEqual([expect.objectContaining({ unread: false })]);
        expect((await carolSession.call('threads.unfollow', { messageUid: parent })).body.following).toBe(false);
        expect((await carolSession.call('threads.follow', { messageUid: parent })).body.following).toBe(true);
        // Someone who leaves the channel no longer sees its threads listed.
        await alice.client.channels.removeMembers({ channelId, members: [carol.id] });
        expect(await listed(carolSession)).toEqual({ threads: [] });
        expect((await carolSession.call('threads.follow', { messageUid: parent })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
      });

      it('pages the followed threads by keyset, most recent reply first', async () => {
        const { alice, bob, channelId, aliceSession } = await cast();
        const parents: string[] = [];
        for (const text of ['a', 'b', 'c']) {
          const { uid } = await alice.client.chat.sendMessage({ to: channelId, text });
          await bob.client.chat.sendMessage({ to: channelId, text: `re ${text}`, threadParent: uid });
          parents.push(uid);
        }
        const first = await aliceSession.call('threads.list', { limit: 2 });
        expect(first.body.threads.map((thread: { message: { text: string } }) => thread.message.text)).toEqual(['c', 'b']);
        const second = await aliceSession.call('threads.list', { limit: 2, cursor: first.body.nextCursor });
        expect(second.body).toEqual({ threads: [expect.objectContaining({ message: expect.objectContaining({ uid: parents[0] }) })] });
        expect((await aliceSession.call('threads.list', { cursor: 'nope' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'cursor' });
      });
    });

    describe('frames', () => {
      it('reach the chat’s readers live: the reply and the parent’s new summary; following reaches the person alone', async () => {
        const { team, alice, channelId, aliceSession, bobSession } = await cast();
        const olga = await sessionFor(t(), await t().f.person(team.id));
        const streams = await Promise.all([aliceSession, bobSession, olga].map((who) => openStream(t(), who)));
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'hello thread' });
        const { body: reply } = await bobSession.call('chat.sendMessage', { to: channelId, text: 'a reply', threadParent: parent });
        await aliceSession.call('threads.markRead', { messageUid: parent });
        await fence(t(), team.id, alice.id, streams);
        const threadFrames = (index: number) => streams[index].data().filter((frame) => frame.type.startsWith('thread.') || (frame.type === 'message.created' && frame.message.threadParent));
        const ref = { uid: parent, from: alice.id, to: channelId };
        const shared = [
          { type: 'message.created', message: { uid: reply.uid, threadParent: parent, text: 'a reply' } },
          { type: 'thread.updated', message: ref, thread: { replyCount: 1, participants: [bobSession.user.id], lastReplyUid: reply.uid } },
        ];
        expect(threadFrames(1)).toMatchObject(shared);
        // Alice wrote the parent, so she follows the thread: the reply comes to her whole once more.
        const followed = { type: 'thread.followedReply', message: { uid: reply.uid, threadParent: parent, text: 'a reply' } };
        expect(threadFrames(0)).toMatchObject([...shared, followed, { type: 'thread.followUpdated', message: ref, following: true, readUpTo: reply.uid }]);
        expect(threadFrames(2)).toEqual([]);
        for (const frame of streams.flatMap((stream) => stream.frames)) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
      });

      it('brings a reply to the people who follow its thread and read it: not its sender, nor one who unfollowed or left', async () => {
        const { team, alice, bob, channelId, aliceSession, bobSession, db } = await cast();
        const member = async () => {
          const person = await t().f.person(team.id);
          await alice.client.channels.addMembers({ channelId, members: [person.id] });
          return sessionFor(t(), person);
        };
        const [leaving, unfollowing, bystander] = [await member(), await member(), await member()];
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'who takes the release?' });
        for (const who of [leaving, unfollowing]) expect((await who.call('threads.follow', { messageUid: parent })).status).toBe(200);
        expect((await unfollowing.call('threads.unfollow', { messageUid: parent })).status).toBe(200);
        await alice.client.channels.removeMembers({ channelId, members: [leaving.user.id] });
        const people = [aliceSession, bobSession, leaving, unfollowing, bystander];
        const streams = await Promise.all(people.map((who) => openStream(t(), who)));
        const { body: reply } = await bobSession.call('chat.sendMessage', { to: channelId, text: 'I can', threadParent: parent });
        await fence(t(), team.id, alice.id, streams);
        const followedReplies = streams.map((stream) => stream.data().flatMap((frame) => (frame.type === 'thread.followedReply' ? [frame.message.uid] : [])));
        expect(followedReplies).toEqual([[reply.uid], [], [], [], []]);
        // Bob replied, so he follows now: Alice's answer comes to him, and not to her.
        const { body: answer } = await aliceSession.call('chat.sendMessage', { to: channelId, text: 'Thanks!', threadParent: parent });
        await bobSession.call('chat.sendMessage', { to: bobSession.user.id, text: 'a fence of my own' });
        await streams[1]!.waitFor((frame) => frame.type === 'thread.followedReply' && frame.message.uid === answer.uid);
        const following = await db.selectFrom('thread_follows').select(['user_id', 'following']).where('parent_uid', '=', parent).orderBy('user_id').execute();
        expect(following.filter((row) => row.following === 1).map((row) => row.user_id).sort()).toEqual([alice.id, bob.id, leaving.user.id].sort());
      });
    });

    describe('deleting', () => {
      it('leaves a parent with replies as deleted, its thread readable; the last reply gone takes it along', async () => {
        const { alice, bob, channelId, aliceSession, bobSession, db } = await cast();
        const { uid: parent } = await alice.client.chat.sendMessage({ to: channelId, text: 'to be deleted' });
        const { uid: reply } = await bob.client.chat.sendMessage({ to: channelId, text: 'still here', threadParent: parent });
        const { uid: other } = await alice.client.chat.sendMessage({ to: channelId, text: 'second', threadParent: parent });
        expect((await aliceSession.call('chat.deleteMessage', { messageUid: parent })).status).toBe(200);
        const [shown] = await bob.client.chat.fetchMessages({ chat: channelId });
        expect(shown).toMatchObject({ uid: parent, text: '', deletedAt: expect.any(Number), thread: { replyCount: 2 } });
        expect((await bob.client.chat.fetchMessages({ chat: channelId, thread: parent })).map((message) => message.text)).toEqual(['second', 'still here']);
        expect((await aliceSession.call('chat.deleteMessage', { messageUid: parent })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
        expect((await aliceSession.call('chat.updateMessage', { messageUid: parent, text: 'back' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
        // The emptied parent takes nothing new of its own: no reaction, pin or save (the thread itself is still followed and read).
        for (const [method, params] of [['reactions.add', { emoji: '👍' }], ['pins.add', {}], ['saved.add', {}]] as const) {
          const refused = await bobSession.call(method, { messageUid: parent, ...params });
          expect(refused.body, method).toMatchObject({ error: 'InvalidParameter', parameter: 'messageUid' });
        }
        expect((await bobSession.call('threads.follow', { messageUid: parent })).status).toBe(200);
        for (const table of ['reactions', 'pins', 'saved_items'] as const) {
          expect(await db.selectFrom(table).select('message_uid').where('message_uid', '=', parent).execute(), table).toEqual([]);
        }
        // A reply deleted: the summary is counted again.
        await aliceSession.call('chat.deleteMessage', { messageUid: other });
        expect((await bob.client.chat.fetchMessages({ chat: channelId, uids: [parent] }))[0].thread).toMatchObject({ replyCount: 1, lastReplyUid: reply, participants: [bob.id] });
        await bobSession.call('chat.deleteMessage', { messageUid: reply });
        expect(await bob.client.chat.fetchMessages({ chat: channelId })).toEqual([]);
        expect(await db.selectFrom('threads').selectAll().where('parent_uid', '=', parent).execute()).toEqual([]);
        expect(await db.selectFrom('thread_follows').selectAll().where('parent_uid', '=', parent).execute()).toEqual([]);
      });
    });

    describe('apps', () => {
      it('gives a bot the thread replies addressed to it as chat.receiveMessage with the parent’s uid; a bot replies in a thread', async () => {
        const { alice, bot, app, channelId, db, aliceSession, bobSession } = await cast();
        const received = async () =>
          (await db.selectFrom('events').select('payload').where('app_id', '=', app.id).where('name', '=', 'chat.receiveMessage').orderBy('id').execute()).map((row) => JSON.parse(row.payload).message);
        const { uid: direct } = await alice.client.chat.sendMessage({ to: bot.id, text: 'hi bot' });
        const { uid: reply } = await alice.client.chat.sendMessage({ to: bot.id, text: 'in thread', threadParent: direct });
        expect((await received()).at(-1)).toMatchObject({ uid: reply, threadParent: direct });
        // In a channel (a bot posts for a member who installed its app): replies in the thread of its own message reach it; other channel messages do not.
        const { uid: botParent } = await bot.client.chat.sendMessage({ to: channelId, text: 'poll: tea or coffee?', onBehalfOf: alice.id });
        const { uid: answer } = await alice.client.chat.sendMessage({ to: channelId, text: 'tea', threadParent: botParent });
        await alice.client.chat.sendMessage({ to: channelId, text: 'unrelated' });
        const botReply = await bot.client.chat.sendMessage({ to: channelId, text: 'noted', threadParent: answer, onBehalfOf: alice.id });
        const events = await received();
        expect(events.at(-1)).toMatchObject({ uid: answer, threadParent: botParent, text: 'tea' });
        expect(events.map((message: { text: string }) => message.text)).not.toContain('unrelated');
        const [shown] = await alice.client.chat.fetchMessages({ chat: channelId, thread: botParent, limit: 1 });
        expect(shown).toMatchObject({ uid: botReply.uid, threadParent: botParent, from: bot.id });
        // Once no member of the channel has the app (Alice uninstalls it, Bob turns it off), its thread's replies stay in the channel.
        expect((await aliceSession.call('apps.uninstall', { appId: app.id })).status).toBe(200);
        expect((await bobSession.call('apps.disable', { appId: app.id })).status).toBe(200);
        const before = (await received()).length;
        expect((await bobSession.call('chat.sendMessage', { to: channelId, text: 'just between us', threadParent: botParent })).status).toBe(200);
        expect(await received()).toHaveLength(before);
        // Bob turns it back on: the app sees into the channel again.
        expect((await bobSession.call('apps.enable', { appId: app.id })).status).toBe(200);
        expect((await bobSession.call('chat.sendMessage', { to: channelId, text: 'back on', threadParent: botParent })).status).toBe(200);
        expect((await received()).at(-1)).toMatchObject({ text: 'back on', threadParent: botParent });
      });
    });
  },
  roomyRateLimits,
);
