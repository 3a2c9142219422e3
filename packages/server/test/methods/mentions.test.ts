import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream } from '../stream/harness.js';
import { chatCast, roomyRateLimits } from './chat-cast.js';

afterEach(closeStreams);

/** Mentions: chat.listMentions, @channel and @here with the team's limit, the counts of the read state. */
forEachDialect(
  'mentions',
  (t) => {
    const cast = async () => {
      const c = await chatCast(t());
      const db = t().testStore.store.db;
      const row = (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const admin = await sessionFor(t(), await t().f.person(c.team.id, { role: 'admin' }));
      return { ...c, db, admin, aliceSession: await sessionFor(t(), await row(c.alice.id)), bobSession: await sessionFor(t(), await row(c.bob.id)), carolSession: await sessionFor(t(), await row(c.carol.id)) };
    };
    const conversation = async (who: { call: (m: string, p?: unknown) => Promise<{ body: any }> }, chat: string) =>
      ((await who.call('chat.listConversations')).body.conversations as Array<{ chat: string; unread: number; mentions: number }>).find((c) => c.chat === chat)!;

    it('counts the messages that mention a person apart from the unread ones, and lists them newest first by pages', async () => {
      const { alice, bob, carol, channelId, bobSession, carolSession } = await cast();
      await alice.client.chat.sendMessage({ to: channelId, text: 'no mention' });
      const first = await alice.client.chat.sendMessage({ to: channelId, text: '@Bob look', mentions: [bob.id] });
      const direct = await carol.client.chat.sendMessage({ to: bob.id, text: 'hey @Bob', mentions: [bob.id] });
      const third = await alice.client.chat.sendMessage({ to: channelId, text: '@Bob and again', mentions: [bob.id] });
      expect(await conversation(bobSession, channelId)).toMatchObject({ unread: 3, mentions: 2 });
      expect(await conversation(bobSession, carol.id)).toMatchObject({ unread: 1, mentions: 1 });

      const page = await bobSession.call('chat.listMentions', { limit: 2 });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.messages.map((m: { uid: string }) => m.uid)).toEqual([third.uid, direct.uid]);
      const next = await bobSession.call('chat.listMentions', { limit: 2, cursor: page.body.nextCursor });
      expect(next.body).toEqual({ messages: [expect.objectContaining({ uid: first.uid, mentions: [bob.id] })] });
      // Carol is in neither the channel nor mentioned: nothing for her.
      expect((await carolSession.call('chat.listMentions')).body).toEqual({ messages: [] });

      // Marking read moves the counts of the read state (chat.markRead answers them too).
      const read = await bobSession.call('chat.markRead', { chat: channelId, uid: first.uid });
      expect(read.body).toMatchObject({ unread: 1, mentions: 1 });
      expect((await bobSession.call('chat.listMentions', { cursor: 'not a uid' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'cursor' });
    });

    it('takes @channel and @here in a channel as a mention of every member, keeping mentions to user ids', async () => {
      const { alice, bob, carol, channelId, bobSession, aliceSession } = await cast();
      const everyone = await alice.client.chat.sendMessage({ to: channelId, text: 'deploy at noon @channel' });
      const here = await bob.client.chat.sendMessage({ to: channelId, text: '@here: standup' });
      const [stored] = await alice.client.chat.fetchMessages({ chat: channelId, uids: [everyone.uid] });
      expect(stored.mentions).toBeUndefined();
      expect(await conversation(bobSession, channelId)).toMatchObject({ unread: 1, mentions: 1 });
      expect(await conversation(aliceSession, channelId)).toMatchObject({ unread: 1, mentions: 1 });
      expect((await aliceSession.call('chat.listMentions')).body.messages.map((m: { uid: string }) => m.uid)).toEqual([here.uid]);
      // Not a word of its own, and never in a direct chat.
      await alice.client.chat.sendMessage({ to: channelId, text: 'mail me at team@channel.example' });
      await carol.client.chat.sendMessage({ to: bob.id, text: '@channel in a direct chat' });
      expect(await conversation(bobSession, channelId)).toMatchObject({ unread: 2, mentions: 1 });
      expect(await conversation(bobSession, carol.id)).toMatchObject({ unread: 1, mentions: 0 });
    });

    it('lets only team admins use @channel and @here in channels above the team’s limit', async () => {
      const { alice, bob, carol, team, channelId, admin, aliceSession } = await cast();
      expect((await aliceSession.call('team.updateMentionSettings', { broadcastMentionLimit: 1 })).body).toMatchObject({ error: 'PermissionDenied' });
      const set = await admin.call('team.updateMentionSettings', { broadcastMentionLimit: 2 });
      expect(set.body.team).toMatchObject({ id: team.id, broadcastMentionLimit: 2 });
      expect((await aliceSession.call('team.getInfo')).body.team.broadcastMentionLimit).toBe(2);
      // Two members: at the limit, allowed.
      await alice.client.chat.sendMessage({ to: channelId, text: '@channel two of us' });
      await alice.client.channels.addMembers({ channelId, members: [carol.id, admin.user.id] });
      const refused = await aliceSession.call('chat.sendFromComposer', { to: channelId, text: '@here anyone?' });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'PermissionDenied', parameter: 'text', description: /this channel has 4: in channels of more than 2 members only a team admin/ });
      const byToken = await t().call('chat.sendMessage', { json: { to: channelId, text: 'hi @channel' }, headers: { authorization: `Bearer ${bob.token}` } });
      expect(byToken.body).toMatchObject({ error: 'PermissionDenied', parameter: 'text' });
      expect((await admin.call('chat.sendMessage', { to: channelId, text: '@channel from an admin' })).status).toBe(200);
      // Mentioning by name stays open to all; 0 lifts the limit.
      expect((await aliceSession.call('chat.sendMessage', { to: channelId, text: '@Bob', mentions: [bob.id] })).status).toBe(200);
      await admin.call('team.updateMentionSettings', { broadcastMentionLimit: 0 });
      expect((await aliceSession.call('chat.sendMessage', { to: channelId, text: '@here now' })).status).toBe(200);
      expect((await admin.call('team.updateMentionSettings', { broadcastMentionLimit: -1 })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'broadcastMentionLimit' });
    });

    describe('notification settings', () => {
      it('sets a chat’s level and tells the person’s other tabs, and nobody else', async () => {
        const { channelId, carol, team, bobSession, aliceSession } = await cast();
        const streams = await Promise.all([bobSession, bobSession, aliceSession].map((who) => openStream(t(), who)));
        const muted = await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'mute' });
        expect(muted.body.settings).toEqual({ chats: [{ chat: channelId, level: 'mute' }], schedule: null, pausedUntil: null, timeZone: expect.any(String) });
        await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'all' });
        const back = await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'mentions' });
        expect(back.body.settings.chats).toEqual([]);
        expect((await bobSession.call('notifications.getSettings')).body.settings.chats).toEqual([]);
        // A chat the person does not read, or a level that is none: refused, naming the parameter.
        const outsider = await sessionFor(t(), await t().f.person(team.id));
        expect((await outsider.call('notifications.setChatLevel', { chat: channelId, level: 'mute' })).body).toMatchObject({ error: 'UnknownChat', parameter: 'chat' });
        expect((await bobSession.call('notifications.setChatLevel', { chat: channelId, level: 'loud' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'level' });
        expect((await bobSession.call('notifications.setChatLevel', { chat: carol.id, level: 'mute' })).status).toBe(200);

        await fence(t(), team.id, bobSession.user.id, streams);
        const levels = (index: number) =>
          streams[index].data().flatMap((frame) => (frame.type === 'notifications.changed' ? [frame.settings.chats.map((c) => c.level).join() || 'default'] : []));
        expect(levels(0)).toEqual(['mute', 'all', 'default', 'mute']);
        expect(levels(1)).toEqual(levels(0));
        expect(levels(2)).toEqual([]);
        for (const frame of streams.flatMap((stream) => stream.frames)) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
      });

      it('keeps a do-not-disturb schedule and a pause, and refuses a schedule of no time', async () => {
        const { bobSession } = await cast();
        const schedule = { days: [5, 1, 2], start: '22:00', end: '07:30' };
        const set = await bobSession.call('notifications.setDoNotDisturb', { schedule, pauseHours: 2 });
        expect(set.status, JSON.stringify(set.body)).toBe(200);
        expect(set.body.settings).toMatchObject({ schedule: { days: [1, 2, 5], start: '22:00', end: '07:30' }, pausedUntil: expect.any(Number) });
        expect(set.body.settings.pausedUntil - Date.now()).toBeGreaterThan(7_100_000);
        const resumed = await bobSession.call('notifications.setDoNotDisturb', { pauseHours: 0 });
        expect(resumed.body.settings).toMatchObject({ schedule: { start: '22:00' }, pausedUntil: null });
        const cleared = await bobSession.call('notifications.setDoNotDisturb', { schedule: null });
        expect(cleared.body.settings?.schedule, JSON.stringify(cleared.body)).toBeNull();
        const refusals = [
          [{}, 'schedule'],
          [{ schedule: { days: [1], start: '09:00', end: '09:00' } }, 'schedule.end'],
          [{ schedule: { days: [7], start: '09:00', end: '10:00' } }, 'schedule'],
          [{ schedule: { days: [1], start: '9am', end: '10:00' } }, 'schedule'],
          [{ pauseHours: 1000 }, 'pauseHours'],
        ] as const;
        for (const [params, parameter] of refusals) {
          const refused = await bobSession.call('notifications.setDoNotDisturb', params);
          expect(refused.status, JSON.stringify(refused.body)).toBe(400);
          expect(refused.body.parameter).toBe(parameter);
          expect(refused.body.description).toMatch(/schedule|pauseHours/);
        }
      });
    });
  },
  roomyRateLimits,
);
