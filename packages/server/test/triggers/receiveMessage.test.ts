import { afterAll, expect, it } from 'vitest';
import { setAppDisabledForTeam } from '../../src/core/commands/apps.js';
import { listAppEvents } from '../../src/events/history/eventHistory.js';
import { clientCast, closeSdkApps } from '../client/harness.js';
import { forEachDialect } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

afterAll(closeSdkApps);

forEachDialect(
  'chat.receiveMessage',
  (t) => {
    it('tells the app about a message to its bot sent through /v1, with the message as fetchMessages shows it', async () => {
      const { alice, bot, sdkApp, app } = await clientCast(t());
      // Alice writes through another app of hers: the bot's app hears of it all the same.
      const other = await t().f.app(alice.user.team_id, alice.user.id);
      const { token } = await t().f.install(other.id, alice.user.id);
      const { uid } = await t().client(token).chat.sendMessage({ to: bot.botUserId, text: 'help me', id: 'q-1' });
      const [{ event, claims }] = await sdkApp.waitFor(1);
      const [message] = await t().client(bot.botToken).chat.fetchMessages({ chat: alice.user.id, uids: [uid] });
      expect(event).toEqual({ name: 'chat.receiveMessage', userId: alice.user.id, message });
      expect(message).toMatchObject({ uid, id: 'q-1', from: alice.user.id, to: bot.botUserId, text: 'help me', appId: other.id });
      expect(claims).toMatchObject({ appId: app.id, userId: alice.user.id });
    });

    it('tells the app about a message to its bot from the client API, from someone who never installed it', async () => {
      const { bob, bot, sdkApp } = await clientCast(t());
      const sent = await bob.call('chat.sendFromComposer', { to: bot.botUserId, text: 'hello bot' });
      const [{ event }] = await sdkApp.waitFor(1);
      expect(event).toEqual({ name: 'chat.receiveMessage', userId: bob.user.id, message: sent.body.message });
    });

    it('stays quiet for messages to people and channels, for the bot’s own messages and for a repeated client id', async () => {
      const { alice, bob, bot, channel, sdkApp, app } = await clientCast(t());
      await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'not for the bot' });
      await alice.call('chat.sendFromComposer', { to: channel.id, text: 'nor this' });
      await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text: 'from the bot' });
      await t().client(bot.botToken).chat.sendMessage({ to: bot.botUserId, text: 'note to self' });
      await alice.call('chat.sendFromComposer', { to: bot.botUserId, text: 'once', id: 'same' });
      await alice.call('chat.sendFromComposer', { to: bot.botUserId, text: 'once', id: 'same' });
      await sdkApp.waitFor(1);
      // Everything enqueued by now has been delivered: a wrongly enqueued event would be among them.
      await t().server.ctx.background.settled();
      await t().server.ctx.events.idle();
      expect(sdkApp.received.map(({ event }) => (event as { message: { text: string } }).message.text)).toEqual(['once']);
      expect(await listAppEvents(t().testStore.store.db, app.id, {})).toHaveLength(1);
    });

    it('stays quiet while a team admin has disabled the app', async () => {
      const { alice, bot, app } = await clientCast(t());
      await setAppDisabledForTeam(storeContext(t().testStore.store.db), cliActor, { appId: app.id, disabled: true });
      await alice.call('chat.sendFromComposer', { to: bot.botUserId, text: 'anyone there?' });
      expect(await listAppEvents(t().testStore.store.db, app.id, {})).toEqual([]);
    });
  },
  {},
  // The worker polls once a minute, so an event arrives within the test only because the send woke it.
  { events: { pollIntervalMs: 60_000 } },
);
