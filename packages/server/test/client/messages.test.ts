import { afterAll, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { createChannel } from '../../src/core/commands/channels.js';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { cliActor } from '../../src/core/audit/record.js';
import { clientCast, closeSdkApps, expectError, http, signIn } from './harness.js';

afterAll(closeSdkApps);

forEachDialect('a person’s conversations, history and sending, through the methods', (t) => {
  it('needs a session', async () => {
    for (const [method, path] of [
      ['POST', '/v1/chat.sendFromComposer'],
      ['POST', '/v1/interactions.pressButton'],
    ]) {
      const result = await http(t().url, method, path, { headers: { authorization: 'Bearer nonsense' }, json: method === 'POST' ? {} : undefined });
      expectError(result, { status: 401, error: 'NotSignedIn' });
    }
  });

  it('serves a person signed in with email and password, by bearer token or cookie', async () => {
    const { channel, alice } = await clientCast(t());
    const password = 'correct horse battery staple';
    const carla = await t().f.person(alice.user.team_id, { firstName: 'Carla', lastName: 'Cook', password });
    await createChannel(t().server.ctx, { user: alice.user, appId: null }, { name: 'kitchen', members: [carla.id] });
    const signedIn = await signIn(t(), carla, password);
    const sent = await signedIn.call('chat.sendFromComposer', { to: channel.id, text: 'not a member here' });
    expectError(sent, { error: 'UnknownRecipient', parameter: 'to' });
    const ownPage = { cookie: `aviary_session=${signedIn.sessionToken}`, origin: new URL(t().url).origin };
    const list = await http(t().url, 'POST', '/v1/chat.listConversations', { headers: ownPage, json: {} });
    expect(list.body.conversations.map((c: { name: string }) => c.name)).toEqual(['kitchen']);
  });

  it('sends as the person, without an app, and the other side reads it through /v1', async () => {
    const { alice, bob, channel } = await clientCast(t());
    const sent = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'Hello all', id: 'c-1' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      message: { uid: expect.any(String), id: 'c-1', from: alice.user.id, to: channel.id, timestamp: expect.any(Number), text: 'Hello all' },
    });
    const seen = await bob.call('chat.fetchMessages', { chat: channel.id });
    expect(seen.body).toEqual([sent.body.message]);

    // A repeated client id answers the first message instead of storing another.
    const again = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'Hello all', id: 'c-1' });
    expect(again.body.message.uid).toBe(sent.body.message.uid);
  });

  it('checks what it sends like chat.sendMessage does, naming the parameter', async () => {
    const { alice, channel } = await clientCast(t());
    expectError(await alice.call('chat.sendFromComposer', ['to', 'text']), { error: 'InvalidRequestData' });
    expectError(await alice.call('chat.sendFromComposer', { to: channel.id }), { error: 'MissingParameter', parameter: 'text' });
    expectError(await alice.call('chat.sendFromComposer', { to: channel.id, text: 'x', serviceml: '<b>no root</b>' }), { error: 'InvalidParameter', parameter: 'serviceml' });
    expectError(await alice.call('chat.sendFromComposer', { to: 'g:aaaaaaaaaaaaaaaa', text: 'x' }), { error: 'UnknownRecipient', parameter: 'to' });
    // What only apps may do is not part of the composer's message: refused, naming it.
    expectError(await alice.call('chat.sendFromComposer', { to: channel.id, text: 'x', sendAs: { name: 'Someone else' } }), { error: 'InvalidParameter', parameter: 'sendAs' });
  });

  it('pages through history newest first, with the visibility rules of chat.fetchMessages', async () => {
    const { alice, bob, channel } = await clientCast(t());
    const uids: string[] = [];
    for (const text of ['one', 'two', 'three']) uids.push((await alice.call('chat.sendFromComposer', { to: channel.id, text })).body.message.uid);
    const page = await bob.call('chat.fetchMessages', { chat: channel.id, limit: 2 });
    expect(page.body.map((m: { text: string }) => m.text)).toEqual(['three', 'two']);
    const older = await bob.call('chat.fetchMessages', { chat: channel.id, before: uids[1] });
    expect(older.body.map((m: { text: string }) => m.text)).toEqual(['one']);

    const outsider = (await clientCast(t())).alice;
    expectError(await outsider.call('chat.fetchMessages', { chat: channel.id }), { error: 'UnknownChat', parameter: 'chat' });
    expectError(await bob.call('chat.fetchMessages', { chat: channel.id, limit: 500 }), { error: 'InvalidParameter', parameter: 'limit' });
    expectError(await bob.call('chat.fetchMessages', {}), { error: 'MissingParameter', parameter: 'chat' });
  });

  it('lists channels and direct chats, most recently active first, with the last message each', async () => {
    const { alice, bob, channel, bot, app } = await clientCast(t());
    const carol = await (await clientCast(t())).person('Carol');
    const quiet = await bob.call('chat.listConversations');
    expect(quiet.body.conversations).toEqual([
      { chat: channel.id, kind: 'channel', name: 'general', channel: { id: channel.id, name: 'general', purpose: '', type: 'private', memberCount: 2 }, unread: 0, mentions: 0 },
    ]);

    await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'psst' });
    const inChannel = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'meeting at 3' });
    const toBot = await alice.call('chat.sendFromComposer', { to: bot.botUserId, text: 'help' });
    const list = await alice.call('chat.listConversations');
    expect(list.body.conversations.map((c: { chat: string }) => c.chat)).toEqual([bot.botUserId, channel.id, bob.user.id]);
    expect(list.body.conversations[0]).toEqual({
      chat: bot.botUserId,
      kind: 'direct',
      name: `${app.name} Bot`,
      user: { id: bot.botUserId, firstName: app.name, lastName: 'Bot', isBot: true },
      lastMessage: toBot.body.message,
      unread: 0,
      mentions: 0,
    });
    expect(list.body.conversations[1].lastMessage).toEqual(inChannel.body.message);
    expect(list.body.conversations[2]).toMatchObject({ kind: 'direct', name: 'Bob Baker', lastMessage: { text: 'psst' } });

    // Bob sees the direct chat Alice started; Carol, of another team, sees none of it.
    const bobs = await bob.call('chat.listConversations');
    expect(bobs.body.conversations.map((c: { chat: string; name: string }) => [c.chat, c.name])).toEqual([
      [channel.id, 'general'],
      [alice.user.id, 'Alice Archer'],
    ]);
    expect((await carol.call('chat.listConversations')).body.conversations).toEqual([]);

    // Bob leaves the team: the direct chat stays, marked, and takes nothing more.
    expect(list.body.conversations[2].deactivated).toBeUndefined();
    await deactivatePerson(t().server.ctx, cliActor, { userId: bob.user.id });
    const after = await alice.call('chat.listConversations');
    expect(after.body.conversations.find((c: { chat: string }) => c.chat === bob.user.id)).toMatchObject({ kind: 'direct', deactivated: true, lastMessage: { text: 'psst' } });
  });

  it('leaves a message hidden by visibleTo out of the last messages', async () => {
    const { alice, bob, channel, person } = await clientCast(t());
    const dave = await person('Dave');
    const visible = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'for all' });
    // visibleTo is not a composer field, so the restricted message comes from /v1, through Alice's install.
    const { token } = await t().f.install((await t().f.app(alice.user.team_id, alice.user.id)).id, alice.user.id);
    await t().client(token).chat.sendMessage({ to: channel.id, text: 'for Alice only', visibleTo: [alice.user.id] });
    const [general] = (await bob.call('chat.listConversations')).body.conversations;
    expect(general.lastMessage).toEqual(visible.body.message);
    expect((await alice.call('chat.listConversations')).body.conversations[0].lastMessage.text).toBe('for Alice only');
    expect((await dave.call('chat.listConversations')).body.conversations).toEqual([]);
  });
});
