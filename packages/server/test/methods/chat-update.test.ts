import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/commands/sendMessage.js';
import { newMessageUid } from '../../src/store/ids.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, failure, roomyRateLimits } from './chat-cast.js';

/** chat.updateMessage (an Aviary extension): the sender edits a message with a token of the app it was sent through. */
forEachDialect(
  'chat.updateMessage',
  (t) => {
    const cast = () => chatCast(t());

    describe('the sender’s edit', () => {
      it('replaces the text, records editedAt and keeps mentions, visibleTo and the attachment', async () => {
        const { alice, bob, carol, channelId } = await cast();
        await alice.client.channels.addMembers({ channelId, members: [carol.id] });
        const attachments = [{ id: 'tally', title: 'Votes', buttons: [{ name: 'Yes', id: 'yes', action: { type: 'sendEvent' as const } }] }];
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'Lunch? 0 votes', mentions: [bob.id], visibleTo: [bob.id], attachments });
        const [before] = await bob.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(before.editedAt).toBeUndefined();

        const edited = await alice.client.chat.updateMessage({ messageUid: uid, text: 'Lunch? 1 vote' });
        expect(edited).toEqual({ uid, editedAt: expect.any(Number) });
        const [after] = await bob.client.chat.fetchMessages({ chat: channelId, uids: [uid] });
        expect(after).toEqual({ ...before, text: 'Lunch? 1 vote', editedAt: edited.editedAt });
        expect(await carol.client.chat.fetchMessages({ chat: channelId, uids: [uid] })).toEqual([]);
      });

      it('replaces the attachment when given, removes it with [], and takes the text’s ServiceML form only from the edit', async () => {
        const { alice, bob, app } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'v1', serviceml: '<serviceml><b>v1</b></serviceml>', attachments: [{ title: 'one' }] });
        const fetch = async () => (await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid] }))[0];

        await alice.client.chat.updateMessage({ messageUid: uid, text: 'v2', serviceml: '<serviceml><i>v2</i></serviceml>', attachments: [{ title: 'two', appId: 'a:claimed' }] });
        expect(await fetch()).toMatchObject({ text: 'v2', serviceml: '<serviceml><i>v2</i></serviceml>', attachments: [{ title: 'two', appId: app.id }] });

        await alice.client.chat.updateMessage({ messageUid: uid, text: 'v3', attachments: [] });
        const third = await fetch();
        expect(third.text).toBe('v3');
        expect(third.serviceml).toBeUndefined();
        expect(third.attachments).toBeUndefined();
      });

      it('lets a bot edit what it posted in a channel on behalf of a member, and its direct messages', async () => {
        const { alice, bob, bot, channelId } = await cast();
        const inChannel = await bot.client.chat.sendMessage({ to: channelId, text: 'Deploying…', onBehalfOf: bob.id });
        const direct = await bot.client.chat.sendMessage({ to: alice.id, text: 'Build running' });
        await bot.client.chat.updateMessage({ messageUid: inChannel.uid, text: 'Deployed' });
        await bot.client.chat.updateMessage({ messageUid: direct.uid, text: 'Build passed' });
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [inChannel.uid] })).toMatchObject([{ text: 'Deployed', from: bot.id }]);
        expect(await alice.client.chat.fetchMessages({ chat: bot.id, uids: [direct.uid] })).toMatchObject([{ text: 'Build passed', from: bot.id }]);
      });
    });

    describe('who may not', () => {
      const unseen = (uid: string) => ({
        error: 'InvalidParameter',
        parameter: 'messageUid',
        description: new RegExp(`no message ${uid} that you can see`),
      });

      it('refuses a teammate who sees the message but did not send it, and the app’s bot for a person’s message', async () => {
        const { alice, bob, bot } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'mine' });
        await expectApiError(bob.client.chat.updateMessage({ messageUid: uid, text: 'hijacked' }), {
          error: 'PermissionDenied',
          status: 403,
          parameter: 'messageUid',
          description: /sent by someone else/,
        });
        const toBot = await alice.client.chat.sendMessage({ to: bot.id, text: 'help' });
        await expectApiError(bot.client.chat.updateMessage({ messageUid: toBot.uid, text: 'no help' }), { error: 'PermissionDenied', status: 403 });
      });

      it('refuses the sender’s token of another app, and messages the sender wrote in the web client', async () => {
        const { alice, bob, f, team } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'through X' });
        const otherApp = await f.app(team.id, alice.id);
        const other = t().client((await f.install(otherApp.id, alice.id)).token);
        await expectApiError(other.chat.updateMessage({ messageUid: uid, text: 'through Y' }), {
          error: 'PermissionDenied',
          status: 403,
          parameter: 'messageUid',
          description: /sent through another app/,
        });
        const aliceRow = await t().testStore.store.db.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
        const { message } = await sendMessage(t().server.ctx, { user: aliceRow, appId: null }, { to: bob.id, text: 'typed by hand' });
        await expectApiError(alice.client.chat.updateMessage({ messageUid: message.uid, text: 'rewritten' }), {
          error: 'PermissionDenied',
          status: 403,
          description: /sent from the web client/,
        });
        expect(await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid, message.uid] })).toMatchObject([{ text: 'through X' }, { text: 'typed by hand' }]);
      });

      it('answers another team, a non-member, a hidden message and a bot outside the channel as it answers an unknown uid', async () => {
        const { alice, bob, carol, bot, olga, channelId } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: channelId, text: 'members only' });
        const hidden = await alice.client.chat.sendMessage({ to: channelId, text: 'for alice', visibleTo: [alice.id] });
        const unknown = newMessageUid();
        const answers = [
          await failure(olga.client.chat.updateMessage({ messageUid: uid, text: 'x' })),
          await failure(carol.client.chat.updateMessage({ messageUid: uid, text: 'x' })),
          await failure(bot.client.chat.updateMessage({ messageUid: uid, text: 'x' })),
          await failure(bob.client.chat.updateMessage({ messageUid: hidden.uid, text: 'x' })),
          await failure(alice.client.chat.updateMessage({ messageUid: unknown, text: 'x' })),
        ];
        const shapes = answers.map((error) => ({ status: error.status, body: { ...error.body, description: String(error.body.description).replace(/[0-9A-Z]{26}/, '<uid>') } }));
        for (const shape of shapes) expect(shape).toEqual(shapes[4]);
        await expectApiError(Promise.reject(answers[0]), unseen(uid));
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid, hidden.uid] })).toMatchObject([{ text: 'members only' }, { text: 'for alice' }]);
      });

      it('refuses a missing or oversized text, a missing or malformed uid and an invalid attachment, naming the parameter', async () => {
        const { alice, bob } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'original' });
        const call = (form: Record<string, string>) => t().call('chat.updateMessage', { form: { token: alice.token, ...form } });
        const cases: Array<[Record<string, string>, string, string]> = [
          [{ messageUid: uid }, 'MissingParameter', 'text'],
          [{ messageUid: uid, text: '' }, 'MissingParameter', 'text'],
          [{ messageUid: uid, text: 'x'.repeat(40_001) }, 'InvalidParameter', 'text'],
          [{ text: 'x' }, 'MissingParameter', 'messageUid'],
          [{ messageUid: 'not-a-uid', text: 'x' }, 'InvalidParameter', 'messageUid'],
          [{ messageUid: uid, text: 'x', attachments: '[{"title":"a"},{"title":"b"}]' }, 'InvalidParameter', 'attachments'],
          [{ messageUid: uid, text: 'x', serviceml: '<serviceml><blink>x</blink></serviceml>' }, 'InvalidParameter', 'serviceml'],
        ];
        for (const [form, error, parameter] of cases) {
          const answer = await call(form);
          expect(answer.status, JSON.stringify(answer.body)).toBe(400);
          expect(answer.body).toMatchObject({ error, parameter, description: expect.stringContaining(parameter) });
        }
        expect(await alice.client.chat.fetchMessages({ chat: bob.id, uids: [uid] })).toMatchObject([{ text: 'original' }]);
        expect((await alice.client.chat.fetchMessages({ chat: bob.id, uids: [uid] }))[0].editedAt).toBeUndefined();
      });
    });
  },
  roomyRateLimits,
);
