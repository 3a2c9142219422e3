import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, expect, it } from 'vitest';
import { addChannelMembers, createChannel, removeChannelMembers } from '../../src/core/commands/channels.js';
import { uidBefore } from '../../src/core/commands/readMarkers.js';
import { clientCast, closeSdkApps, expectError, sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, messageWithText, openStream, streamCast } from './harness.js';

afterEach(closeStreams);
afterAll(closeSdkApps);

const generous = { message: { rate: 1000, burst: 1000 }, messagePerRecipient: { rate: 1000, burst: 1000 }, channel: { rate: 1000, burst: 1000 } };

forEachDialect(
  'the stream: each frame reaches exactly the people who may see it',
  (t) => {
    it('a channel message reaches its members and not another teammate; a direct message its two people', async () => {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'pair', members: [ben.user.id] });
      const streams = await Promise.all(people.map((who) => openStream(t(), who)));
      const [annStream, benStream, cyStream] = streams;

      await ann.call('chat.sendFromComposer', { to: channel.id, text: 'to the channel' });
      await ben.call('chat.sendFromComposer', { to: cy.user.id, text: 'ben to cy' });
      await fence(t(), team.id, ann.user.id, streams);

      const texts = (stream: typeof annStream) => stream.data().flatMap((frame) => (frame.type === 'message.created' ? [frame.message.text] : []));
      expect(texts(annStream)).toEqual(['to the channel']);
      expect(texts(benStream)).toEqual(['to the channel', 'ben to cy']);
      expect(texts(cyStream)).toEqual(['ben to cy']);
      for (const frame of [...annStream.frames, ...benStream.frames, ...cyStream.frames]) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
    });

    it('a visibleTo message reaches the people listed and the sender only', async () => {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'three', members: [ben.user.id, cy.user.id] });
      // Cy reads the channel, but is not among those the message is for.
      const streams = await Promise.all(people.map((who) => openStream(t(), who)));
      const { token } = await t().f.install((await t().f.app(team.id, ann.user.id)).id, ann.user.id);
      await t().client(token).chat.sendMessage({ to: channel.id, text: 'for ben only', visibleTo: [ben.user.id] });
      await fence(t(), team.id, ann.user.id, streams);
      const got = streams.map((stream) => stream.frames.some(messageWithText('for ben only')));
      expect(got).toEqual([true, true, false]);
    });

    it('people added hear of it and of what follows; people removed get the removal, then nothing more of the channel', async () => {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const streams = await Promise.all(people.map((who) => openStream(t(), who)));
      const [annStream, benStream, cyStream] = streams;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'room', type: 'public', members: [ben.user.id] });
      await addChannelMembers(t().server.ctx, { user: ann.user, appId: null }, { channelId: channel.id, members: [cy.user.id] });
      await ann.call('chat.sendFromComposer', { to: channel.id, text: 'all three' });
      await removeChannelMembers(t().server.ctx, { user: ann.user, appId: null }, { channelId: channel.id, members: [ben.user.id] });
      await ann.call('chat.sendFromComposer', { to: channel.id, text: 'without ben' });
      await fence(t(), team.id, ann.user.id, streams);

      const kinds = (stream: typeof annStream) =>
        stream.data().flatMap((frame) => (frame.type === 'app.deleted' ? [] : [frame.type === 'message.created' ? frame.message.text : frame.type]));
      expect(kinds(annStream)).toEqual(['channel.created', 'channel.membersAdded', 'all three', 'channel.membersRemoved', 'without ben']);
      expect(kinds(benStream)).toEqual(['channel.created', 'channel.membersAdded', 'all three', 'channel.membersRemoved']);
      expect(kinds(cyStream)).toEqual(['channel.membersAdded', 'all three', 'channel.membersRemoved', 'without ben']);
      const removal = benStream.data().find((frame) => frame.type === 'channel.membersRemoved');
      expect(removal).toMatchObject({ channel: { id: channel.id, memberCount: 2 }, userIds: [ben.user.id] });
      const created = annStream.data().find((frame) => frame.type === 'channel.created');
      expect(created).toMatchObject({ channel: { id: channel.id, name: 'room', type: 'public', memberCount: 2 }, memberIds: [ann.user.id, ben.user.id] });
    });

    it('a preview attached to a message reaches everyone who sees the message, as message.updated', async () => {
      const cast = await clientCast(t(), { previewDomains: ['preview.example.test'] });
      cast.sdkApp.answer = () => ({ title: 'Issue 7', views: { serviceml: '<serviceml><b>open</b></serviceml>' } });
      const outsider = await cast.person('Olga');
      const streams = await Promise.all([cast.alice, cast.bob, outsider].map((who) => openStream(t(), who)));
      const text = 'see https://preview.example.test/7';
      await cast.alice.call('chat.sendFromComposer', { to: cast.channel.id, text });
      await t().server.ctx.background.settled();
      await fence(t(), cast.team.id, cast.alice.user.id, streams);
      const updates = streams.map((stream) => stream.data().filter((frame) => frame.type === 'message.updated'));
      expect(updates[0]).toEqual(updates[1]);
      expect(updates[0]).toMatchObject([{ message: { text, attachments: [{ title: 'Issue 7', appId: cast.app.id }] } }]);
      expect(updates[2]).toEqual([]);
    });

    it('installs and the person’s own switches reach that person only; a team admin’s switch reaches the whole team', async () => {
      const cast = await clientCast(t());
      const admin = await sessionFor(t(), await t().f.person(cast.team.id, { firstName: 'Ada', lastName: 'Admin', role: 'admin' }));
      const streams = await Promise.all([cast.alice, cast.bob, admin].map((who) => openStream(t(), who)));
      const [aliceStream, bobStream, adminStream] = streams;
      const appId = cast.app.id;
      for (const step of ['install', 'disable', 'enable', 'uninstall']) expect((await cast.bob.call(`apps.${step}`, { appId })).status).toBe(200);
      expect((await admin.call('apps.disableForTeam', { appId })).status).toBe(200);
      await fence(t(), cast.team.id, cast.alice.user.id, streams);

      const appFrames = (stream: typeof bobStream) =>
        stream.data().flatMap((frame) => (frame.type.startsWith('app.') && frame.type !== 'app.deleted' ? [frame] : []));
      const frame = (type: string, by?: string) => expect.objectContaining({ type, appId: cast.app.id, ...(by ? { by } : {}) });
      expect(appFrames(bobStream)).toEqual([
        frame('app.installed'), frame('app.disabled', 'user'), frame('app.enabled', 'user'), frame('app.uninstalled'), frame('app.disabled', 'team'),
      ]);
      expect(appFrames(aliceStream)).toEqual([frame('app.disabled', 'team')]);
      expect(appFrames(adminStream)).toEqual([frame('app.disabled', 'team')]);
    });

    /** Ann and Ben; Ben's app sends Ann three messages, the second mentioning her. */
    async function threeToAnn() {
      const { team, people } = await streamCast(t(), ['Ann', 'Ben']);
      const [ann, ben] = people;
      const { token } = await t().f.install((await t().f.app(team.id, ben!.user.id)).id, ben!.user.id);
      const uids: string[] = [];
      for (const [text, mentions] of [['one', []], ['two', [ann!.user.id]], ['three', []]] as const) {
        uids.push((await t().client(token).chat.sendMessage({ to: ann!.user.id, text, mentions: [...mentions] })).uid);
      }
      return { team, ann: ann!, ben: ben!, uids };
    }

    it('reading a chat updates its counts on every device of the reader, and nobody else’s', async () => {
      const { team, ann, ben, uids } = await threeToAnn();
      const direct = async () => (await ann.call('chat.listConversations')).body.conversations.find((c: { chat: string }) => c.chat === ben.user.id);
      expect(await direct()).toMatchObject({ unread: 3, mentions: 1 });
      expect(await direct()).not.toHaveProperty('readUpTo');

      const streams = await Promise.all([ann, ann, ben].map((who) => openStream(t(), who)));
      const marked = await ann.call('chat.markRead', { chat: ben.user.id, uid: uids[0] });
      expect(marked.body).toEqual({ chat: ben.user.id, readUpTo: uids[0], unread: 2, mentions: 1 });
      expect((await ann.call('chat.markRead', { chat: ben.user.id, uid: uids[1] })).body).toMatchObject({ readUpTo: uids[1], unread: 1, mentions: 0 });
      // A marker never moves back: the answer says where it stands, and nobody is told anything.
      expect((await ann.call('chat.markRead', { chat: ben.user.id, uid: uids[0] })).body).toMatchObject({ readUpTo: uids[1], unread: 1 });
      await fence(t(), team.id, ann.user.id, streams);

      const reads = streams.map((stream) => stream.data().filter((frame) => frame.type === 'chat.read'));
      expect(reads[0]).toMatchObject([
        { chat: ben.user.id, readUpTo: uids[0], unread: 2, mentions: 1 },
        { chat: ben.user.id, readUpTo: uids[1], unread: 1, mentions: 0 },
      ]);
      expect(reads[1]).toEqual(reads[0]);
      expect(reads[2]).toEqual([]);
      expect(await direct()).toMatchObject({ readUpTo: uids[1], unread: 1, mentions: 0 });
    });

    it('marks a chat unread from a message on, on every device of the reader, and reading moves the marker on again', async () => {
      const { team, ann, ben, uids } = await threeToAnn();
      await ann.call('chat.markRead', { chat: ben.user.id, uid: uids[2] });
      const streams = await Promise.all([ann, ann, ben].map((who) => openStream(t(), who)));

      // Back from the second message: it and the third are unread, the marker just below the second.
      const back = await ann.call('chat.markUnread', { chat: ben.user.id, uid: uids[1] });
      expect(back.body).toEqual({ chat: ben.user.id, readUpTo: uidBefore(uids[1]!), unread: 2, mentions: 1 });
      expect(uidBefore(uids[1]!) > uids[0]! && uidBefore(uids[1]!) < uids[1]!).toBe(true);
      // Further back, past where the marker stands: all three.
      expect((await ann.call('chat.markUnread', { chat: ben.user.id, uid: uids[0] })).body).toMatchObject({ unread: 3, mentions: 1 });
      const direct = async () => (await ann.call('chat.listConversations')).body.conversations.find((c: { chat: string }) => c.chat === ben.user.id);
      expect(await direct()).toMatchObject({ readUpTo: uidBefore(uids[0]!), unread: 3, mentions: 1 });
      // Read again, forward as ever.
      expect((await ann.call('chat.markRead', { chat: ben.user.id, uid: uids[2] })).body).toMatchObject({ readUpTo: uids[2], unread: 0 });
      await fence(t(), team.id, ann.user.id, streams);

      const reads = streams.map((stream) => stream.data().filter((frame) => frame.type === 'chat.read'));
      expect(reads[0]).toMatchObject([{ unread: 2, mentions: 1 }, { unread: 3, mentions: 1 }, { readUpTo: uids[2], unread: 0 }]);
      expect(reads[1]).toEqual(reads[0]);
      expect(reads[2]).toEqual([]);
    });

    it('refuses to mark unread what is not a message of the chat’s history the person can see, naming the parameter', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const { channel } = await createChannel(t().server.ctx, { user: ann.user, appId: null }, { name: 'unread-from', members: [ben.user.id] });
      const root = (await ben.call('chat.sendFromComposer', { to: channel.id, text: 'a thread' })).body.message.uid;
      const reply = (await ben.call('chat.sendFromComposer', { to: channel.id, text: 'in it', threadParent: root })).body.message.uid;
      const alsoSent = (await ben.call('chat.sendFromComposer', { to: channel.id, text: 'in it and the channel', threadParent: root, alsoInChannel: true })).body.message.uid;
      const hidden = (await ben.call('chat.sendFromComposer', { to: cy.user.id, text: 'not for ann' })).body.message.uid;
      expectError(await ann.call('chat.markUnread', { chat: channel.id, uid: reply }), { error: 'InvalidParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markUnread', { chat: ben.user.id, uid: hidden }), { error: 'InvalidParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markUnread', { chat: channel.id, uid: 'not-a-uid' }), { error: 'InvalidParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markUnread', { chat: channel.id }), { error: 'MissingParameter', parameter: 'uid' });
      expectError(await cy.call('chat.markUnread', { chat: channel.id, uid: root }), { error: 'UnknownChat', parameter: 'chat' });
      expect((await ann.call('chat.markUnread', { chat: channel.id, uid: alsoSent })).body).toMatchObject({ unread: 1 });
      expect((await ann.call('chat.markUnread', { chat: channel.id, uid: root })).body).toMatchObject({ unread: 2 });
    });

    it('refuses to mark read what is not a message of the chat the person can see, naming the parameter', async () => {
      const { people } = await streamCast(t(), ['Ann', 'Ben', 'Cy']);
      const [ann, ben, cy] = people;
      const between = (await ben.call('chat.sendFromComposer', { to: cy.user.id, text: 'not for ann' })).body.message.uid;
      const mine = (await ben.call('chat.sendFromComposer', { to: ann.user.id, text: 'for ann' })).body.message.uid;
      expectError(await ann.call('chat.markRead', { chat: ben.user.id, uid: between }), { error: 'InvalidParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markRead', { chat: ben.user.id, uid: 'not-a-uid' }), { error: 'InvalidParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markRead', { chat: 'nobody', uid: mine }), { error: 'InvalidParameter', parameter: 'chat' });
      expectError(await ann.call('chat.markRead', { chat: ben.user.id }), { error: 'MissingParameter', parameter: 'uid' });
      expectError(await ann.call('chat.markRead', { chat: 'g:aaaaaaaaaaaaaaaa', uid: mine }), { error: 'UnknownChat', parameter: 'chat' });
      expect((await ann.call('chat.markRead', { chat: ben.user.id, uid: mine })).status).toBe(200);
    });
  },
  { rateLimits: generous },
);

it('names the uid just below another, borrowing as numbers do, and the lowest as its own', () => {
  expect(uidBefore('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('01ARZ3NDEKTSV4RRFFQ69G5FAT');
  expect(uidBefore('01ARZ3NDEKTSV4RRFFQ69G5FA0')).toBe('01ARZ3NDEKTSV4RRFFQ69G5F9Z');
  expect(uidBefore('01ARZ3NDEKTSV4RRFFQ69G5FJ0')).toBe('01ARZ3NDEKTSV4RRFFQ69G5FHZ');
  expect(uidBefore('01ARZ3NDEKTSV4RRFFQ69G0000')).toBe('01ARZ3NDEKTSV4RRFFQ69FZZZZ');
  expect(uidBefore('00000000000000000000000000')).toBe('00000000000000000000000000');
});
