import { StreamFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import { afterEach, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { sessionFor } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { closeStreams, fence, openStream } from './harness.js';

afterEach(closeStreams);

const extensions = ['chat.messageUpdated', 'chat.messageDeleted', 'chat.reactionAdded', 'chat.reactionRemoved'];

/**
 * Reactions and deletes reach whoever reads the message, live (reaction.added, reaction.removed,
 * message.deleted), and the apps the message concerns as events, only when they subscribed.
 */
forEachDialect('the stream and events: reactions and deleted messages', (t) => {
  async function cast() {
    const team = await t().f.team();
    const [alice, bob, olga] = await Promise.all(['Alice', 'Bob', 'Olga'].map((firstName) => t().f.person(team.id, { firstName, lastName: 'Reactor' })));
    const { channel } = await createChannel(t().server.ctx, { user: alice, appId: null }, { name: 'general', members: [bob.id] });
    return { team, channel, alice: await sessionFor(t(), alice), bob: await sessionFor(t(), bob), olga: await sessionFor(t(), olga) };
  }

  it('reaches the second person’s open stream live, and nobody outside the chat', async () => {
    const { team, channel, alice, bob, olga } = await cast();
    const streams = await Promise.all([alice, bob, olga].map((who) => openStream(t(), who)));
    const { body: sent } = await alice.call('chat.sendMessage', { to: channel.id, text: 'vote' });
    expect((await bob.call('reactions.add', { messageUid: sent.uid, emoji: '👍' })).status).toBe(200);
    await bob.call('reactions.add', { messageUid: sent.uid, emoji: '👍' });
    await bob.call('reactions.remove', { messageUid: sent.uid, emoji: '👍' });
    expect((await alice.call('chat.deleteMessage', { messageUid: sent.uid })).status).toBe(200);
    await fence(t(), team.id, alice.user.id, streams);

    const ref = { uid: sent.uid, from: alice.user.id, to: channel.id };
    const seen = (index: number) => streams[index].data().filter((frame) => frame.type !== 'message.created' && frame.type !== 'app.deleted');
    const expected = [
      { type: 'reaction.added', message: ref, emoji: '👍', userId: bob.user.id },
      { type: 'reaction.removed', message: ref, emoji: '👍', userId: bob.user.id },
      { type: 'message.deleted', message: ref, deletedBy: alice.user.id },
    ];
    expect(seen(1)).toMatchObject(expected);
    expect(seen(0)).toMatchObject(expected);
    expect(streams[2].data().filter((frame) => frame.type !== 'app.deleted')).toEqual([]);
    for (const frame of streams.flatMap((stream) => stream.frames)) expect(Value.Check(StreamFrame, frame), JSON.stringify(frame)).toBe(true);
  });

  it('tells the apps a message concerns, only when they subscribed, never the app that made the change', async () => {
    const { team, channel, alice, bob } = await cast();
    const subscribed = await t().f.app(team.id, alice.user.id, { name: 'Subscribed', eventSubscriptions: ['chat.receiveMessage', ...extensions] });
    const defaults = await t().f.app(team.id, alice.user.id, { name: 'Defaults' });
    const [subscribedBot, defaultsBot] = [await t().f.bot(subscribed.id), await t().f.bot(defaults.id)];
    const toSubscribed = await alice.call('chat.sendMessage', { to: subscribedBot.botUserId, text: 'hello' });
    const toDefaults = await alice.call('chat.sendMessage', { to: defaultsBot.botUserId, text: 'hello' });
    for (const uid of [toSubscribed.body.uid, toDefaults.body.uid]) {
      await alice.call('reactions.add', { messageUid: uid, emoji: '👋' });
      await alice.call('reactions.remove', { messageUid: uid, emoji: '👋' });
      await alice.call('chat.updateMessage', { messageUid: uid, text: 'hello!' });
      expect((await alice.call('chat.deleteMessage', { messageUid: uid })).status).toBe(200);
    }
    // A message the app sent into a channel: a person's reaction reaches it; its own token's does not.
    const appClient = t().client((await t().f.install(subscribed.id, bob.user.id)).token);
    const posted = await appClient.chat.sendMessage({ to: channel.id, text: 'release notes' });
    await alice.call('reactions.add', { messageUid: posted.uid, emoji: '🎉' });
    await appClient.reactions.add({ messageUid: posted.uid, emoji: '👀' });

    const events = async (appId: string) =>
      (await t().testStore.store.db.selectFrom('events').select(['name', 'payload']).where('app_id', '=', appId).orderBy('id').execute()).map((row) => ({
        name: row.name,
        ...JSON.parse(row.payload),
      }));
    const ref = { uid: toSubscribed.body.uid, from: alice.user.id, to: subscribedBot.botUserId };
    expect(await events(subscribed.id)).toMatchObject([
      { name: 'chat.receiveMessage' },
      { name: 'chat.reactionAdded', userId: alice.user.id, message: ref, emoji: '👋' },
      { name: 'chat.reactionRemoved', userId: alice.user.id, message: ref, emoji: '👋' },
      { name: 'chat.messageUpdated', userId: alice.user.id, message: { uid: ref.uid, text: 'hello!', editedAt: expect.any(Number) } },
      { name: 'chat.messageDeleted', userId: alice.user.id, message: ref },
      { name: 'chat.reactionAdded', userId: alice.user.id, message: { uid: posted.uid, from: bob.user.id, to: channel.id }, emoji: '🎉' },
    ]);
    expect((await events(defaults.id)).map((event) => event.name)).toEqual(['chat.receiveMessage']);
  });
});
