import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { handClock, sessionFor } from './scheduledCast.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** chat.scheduleMessage, chat.listScheduledMessages and chat.deleteScheduledMessage (an Aviary extension), on a hand-moved clock. */
const clock = handClock();

forEachDialect(
  'scheduled messages',
  (t) => {
    const cast = () => chatCast(t());
    const texts = async (reader: { client: ReturnType<ReturnType<typeof t>['client']> }, chat: string) =>
      (await reader.client.chat.fetchMessages({ chat })).map((message) => message.text);

    it('sends the message once at its time, through the app it was scheduled with, and it leaves the list', async () => {
      const { alice, bob, app, channelId } = await cast();
      const { scheduledMessage } = await alice.client.chat.scheduleMessage({ to: channelId, text: 'Stand-up in 5', sendAt: clock.now() + 10 * MINUTE });
      expect(scheduledMessage).toMatchObject({ to: channelId, text: 'Stand-up in 5', status: 'pending', appId: app.id, sendAt: clock.now() + 10 * MINUTE });
      expect((await alice.client.chat.listScheduledMessages({})).scheduledMessages.map((m) => m.id)).toContain(scheduledMessage.id);

      await t().server.scheduled.runOnce();
      expect(await texts(bob, channelId)).not.toContain('Stand-up in 5');

      clock.advance(10 * MINUTE);
      await t().server.scheduled.runOnce();
      await t().server.scheduled.runOnce();
      const messages = (await bob.client.chat.fetchMessages({ chat: channelId })).filter((m) => m.text === 'Stand-up in 5');
      expect(messages).toMatchObject([{ from: alice.id, appId: app.id, timestamp: clock.now() }]);
      expect((await alice.client.chat.listScheduledMessages({})).scheduledMessages.map((m) => m.id)).not.toContain(scheduledMessage.id);
    });

    it('refuses a time in the past or more than 120 days ahead, and what chat.sendMessage refuses, at once', async () => {
      const { alice, channelId, olga } = await cast();
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'x', sendAt: clock.now() }), { error: 'InvalidParameter', parameter: 'sendAt', description: /in the future/ });
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'x', sendAt: clock.now() + 121 * DAY }), { error: 'InvalidParameter', parameter: 'sendAt', description: /120 days/ });
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'x', serviceml: '<serviceml><B>x</B></serviceml>', sendAt: clock.now() + MINUTE }), { error: 'InvalidParameter', parameter: 'serviceml' });
      await expectApiError(olga.client.chat.scheduleMessage({ to: channelId, text: 'x', sendAt: clock.now() + MINUTE }), { error: 'UnknownRecipient', parameter: 'to' });
      const raw = await t().call('chat.scheduleMessage', { json: { to: channelId, text: 'x', sendAt: 'tomorrow' }, headers: { authorization: `Bearer ${alice.token}` } });
      expect(raw.status).toBe(400);
      expect(raw.body).toMatchObject({ error: 'InvalidParameter', parameter: 'sendAt' });
      expect((await alice.client.chat.scheduleMessage({ to: channelId, text: 'far', sendAt: clock.now() + 120 * DAY })).scheduledMessage.status).toBe('pending');
    });

    it('refuses at once what a send would refuse from the store: an unknown person named, a parent not seen, @channel past the team’s limit', async () => {
      const { alice, bob, olga, channelId } = await cast();
      const later = clock.now() + MINUTE;
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'hi', mentions: [olga.id], sendAt: later }), { error: 'InvalidParameter', parameter: 'mentions' });
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'hi', visibleTo: [olga.id], sendAt: later }), { error: 'InvalidParameter', parameter: 'visibleTo' });
      const { uid: direct } = await bob.client.chat.sendMessage({ to: alice.id, text: 'just us' });
      await expectApiError(alice.client.chat.scheduleMessage({ to: channelId, text: 'wrong chat', threadParent: direct, sendAt: later }), { error: 'InvalidParameter', parameter: 'threadParent' });
      const db = t().testStore.store.db;
      const team = (await db.selectFrom('users').select('team_id').where('id', '=', alice.id).executeTakeFirstOrThrow()).team_id;
      await db.updateTable('teams').set({ broadcast_mention_limit: 1 }).where('id', '=', team).execute();
      await expectApiError(bob.client.chat.scheduleMessage({ to: channelId, text: '@channel lunch', sendAt: later }), { error: 'PermissionDenied', status: 403, parameter: 'text' });
      await db.updateTable('teams').set({ broadcast_mention_limit: 0 }).where('id', '=', team).execute();
      expect((await bob.client.chat.listScheduledMessages({})).scheduledMessages).toEqual([]);
    });

    it('never sends a cancelled message; only its scheduler (through the same app) cancels it', async () => {
      const { alice, bob, channelId } = await cast();
      const { scheduledMessage } = await alice.client.chat.scheduleMessage({ to: channelId, text: 'Cancelled one', sendAt: clock.now() + MINUTE });
      await expectApiError(bob.client.chat.deleteScheduledMessage({ id: scheduledMessage.id }), { error: 'InvalidParameter', parameter: 'id' });
      const session = await sessionFor(t().testStore.store.db, alice.id, clock.now());
      const asPerson = await t().call('chat.deleteScheduledMessage', { json: { id: scheduledMessage.id }, headers: { authorization: `Bearer ${session}` } });
      expect(asPerson.body).toMatchObject({ error: 'InvalidParameter', parameter: 'id' });
      await alice.client.chat.deleteScheduledMessage({ id: scheduledMessage.id });
      clock.advance(MINUTE);
      await t().server.scheduled.runOnce();
      expect(await texts(bob, channelId)).not.toContain('Cancelled one');
      await expectApiError(alice.client.chat.deleteScheduledMessage({ id: scheduledMessage.id }), { error: 'InvalidParameter', parameter: 'id', description: /sent already, deleted/ });
    });

    it('checks again at the time: a sender who left the channel gets a failed entry with the refusal, and nothing is sent', async () => {
      const { alice, bob, channelId } = await cast();
      const { scheduledMessage } = await bob.client.chat.scheduleMessage({ to: channelId, text: 'Bob was here', sendAt: clock.now() + MINUTE });
      await alice.client.channels.removeMembers({ channelId, members: [bob.id] });
      clock.advance(MINUTE);
      await t().server.scheduled.runOnce();
      expect(await texts(alice, channelId)).not.toContain('Bob was here');
      const [failed] = (await bob.client.chat.listScheduledMessages({ to: channelId })).scheduledMessages;
      expect(failed).toMatchObject({ id: scheduledMessage.id, status: 'failed', error: { code: 'UnknownRecipient', description: expect.stringMatching(/member/) } });
      await bob.client.chat.deleteScheduledMessage({ id: scheduledMessage.id });
      expect((await bob.client.chat.listScheduledMessages({})).scheduledMessages).toEqual([]);
    });

    it('lets a person schedule with their session: their own list, apart from their app tokens', async () => {
      const { alice, bob } = await cast();
      const session = await sessionFor(t().testStore.store.db, alice.id, clock.now());
      const call = (method: string, json: unknown) => t().call(method, { json, headers: { authorization: `Bearer ${session}` } });
      const made = await call('chat.scheduleMessage', { to: bob.id, text: 'From the web client', sendAt: clock.now() + MINUTE });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body.scheduledMessage.appId).toBeUndefined();
      // A session passes what a person may: no sendAs.
      expect((await call('chat.scheduleMessage', { to: bob.id, text: 'x', sendAt: clock.now() + MINUTE, sendAs: { name: 'Boss' } })).status).toBe(400);
      expect((await call('chat.listScheduledMessages', {})).body.scheduledMessages.map((m: { id: string }) => m.id)).toEqual([made.body.scheduledMessage.id]);
      expect((await alice.client.chat.listScheduledMessages({})).scheduledMessages).toEqual([]);
      clock.advance(MINUTE);
      await t().server.scheduled.runOnce();
      const [sent] = (await bob.client.chat.fetchMessages({ chat: alice.id })).filter((m) => m.text === 'From the web client');
      expect(sent.from).toBe(alice.id);
      expect(sent.appId).toBeUndefined();
    });

    it('forgets a sent entry 7 days after its time; the message stays', async () => {
      const { alice, bob } = await cast();
      const { scheduledMessage } = await alice.client.chat.scheduleMessage({ to: bob.id, text: 'kept message', sendAt: clock.now() + MINUTE });
      clock.advance(MINUTE);
      await t().server.scheduled.runOnce();
      const row = () => t().testStore.store.db.selectFrom('scheduled_messages').select('status').where('id', '=', scheduledMessage.id).executeTakeFirst();
      expect(await row()).toEqual({ status: 'sent' });
      clock.advance(7 * DAY + 1);
      await t().server.scheduled.runOnce();
      expect(await row()).toBeUndefined();
      expect(await texts(bob, alice.id)).toContain('kept message');
    });

    describe('a bot', () => {
      it('schedules on behalf of a member, checked at the time too', async () => {
        const { bob, bot, channelId } = await cast();
        await bot.client.chat.scheduleMessage({ to: channelId, text: 'Bot reminder', onBehalfOf: bob.id, sendAt: clock.now() + MINUTE });
        clock.advance(MINUTE);
        await t().server.scheduled.runOnce();
        expect((await bob.client.chat.fetchMessages({ chat: channelId })).find((m) => m.text === 'Bot reminder')).toMatchObject({ from: bot.id });
      });
    });
  },
  roomyRateLimits,
  { now: clock.now },
);
