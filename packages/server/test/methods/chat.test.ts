import { describe, expect, it } from 'vitest';
import { setInstallDisabled } from '../../src/core/commands/apps.js';
import { deactivatePerson } from '../../src/core/commands/people.js';
import { forEachDialect } from '../helpers/server.js';
import { chatCast, expectApiError, NO_CHANNEL, NOBODY, roomyRateLimits } from './chat-cast.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

const UID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

forEachDialect(
  'chat.sendMessage',
  (t) => {
    const cast = () => chatCast(t());

    describe('direct messages', () => {
      it('stores a message from the caller through its app, which both sides of the chat fetch', async () => {
        const { alice, bob, app } = await cast();
        const before = Date.now();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'Hello Bob' });
        expect(uid).toMatch(UID);
        const [seenByBob] = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid] });
        // Exactly the fields that were set: no empty optionals.
        expect(seenByBob).toEqual({ uid, from: alice.id, to: bob.id, timestamp: expect.any(Number), text: 'Hello Bob', appId: app.id });
        expect(seenByBob.timestamp).toBeGreaterThanOrEqual(before);
        expect(seenByBob.timestamp).toBeLessThanOrEqual(Date.now());
        expect(await alice.client.chat.fetchMessages({ chat: bob.id, uids: [uid] })).toEqual([seenByBob]);
      });

      it('lets anyone in the team message an app’s bot, installed or not', async () => {
        const { alice, bot, f, team, app } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bot.id, text: 'help' });
        expect(await bot.client.chat.fetchMessages({ chat: alice.id, uids: [uid] })).toMatchObject([{ from: alice.id, to: bot.id }]);

        // Dave never installed this app; through another app of his he may still message its bot.
        const dave = await f.person(team.id);
        const daveApp = await f.app(team.id, dave.id);
        const { token } = await f.install(daveApp.id, dave.id);
        const fromDave = await t().client(token).chat.sendMessage({ to: bot.id, text: 'hi bot' });
        expect(await bot.client.chat.fetchMessages({ chat: dave.id, uids: [fromDave.uid] })).toMatchObject([
          { from: dave.id, to: bot.id, appId: daveApp.id },
        ]);
        expect(app.id).not.toBe(daveApp.id);
      });

      it('sends a bot’s direct message as the bot, from its app', async () => {
        const { alice, bot, app } = await cast();
        const { uid } = await bot.client.chat.sendMessage({ to: alice.id, text: 'Your build passed' });
        expect(await alice.client.chat.fetchMessages({ chat: bot.id, uids: [uid] })).toMatchObject([{ from: bot.id, to: alice.id, appId: app.id }]);
      });

      it('answers UnknownRecipient for a user who is unknown, of another team or deactivated', async () => {
        const { alice, olga, f, team } = await cast();
        const leaver = await f.person(team.id);
        await deactivatePerson(t().server.ctx, cliActor, { userId: leaver.id });
        for (const [to, description] of [
          [NOBODY, /no active user u:a{16} in your team/],
          [olga.id, /no active user .* in your team/],
          [leaver.id, new RegExp(`’s account \\(${leaver.id}\\) is deactivated: they no longer receive messages`)],
        ] as const) {
          await expectApiError(alice.client.chat.sendMessage({ to, text: 'hi' }), { error: 'UnknownRecipient', parameter: 'to', description });
        }
      });

      it('refuses a text of blank characters only, sent or edited, unless something else speaks for it', async () => {
        const { alice, bob } = await cast();
        const blank = { error: 'InvalidParameter', parameter: 'text', description: /only blank characters/ };
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: ' \n\t ' }), blank);
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'first words' });
        await expectApiError(alice.client.chat.updateMessage({ messageUid: uid, text: '   ' }), blank);
        await alice.client.chat.sendMessage({ to: bob.id, text: ' ', serviceml: '<serviceml><b>Build</b> passed</serviceml>' });
        await alice.client.chat.sendMessage({ to: bob.id, text: ' ', attachments: [{ title: 'A card says it' }] });
      });

      it('answers InvalidParameter for a `to` that is no chat id', async () => {
        const { alice } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: 'bob', text: 'hi' }), {
          error: 'InvalidParameter',
          parameter: 'to',
          description: /a user id \(u:…\) or a channel id \(g:…\)/,
        });
      });
    });

    describe('channels', () => {
      it('lets a member post, and every member read it', async () => {
        const { alice, bob, channelId } = await cast();
        const { uid } = await bob.client.chat.sendMessage({ to: channelId, text: 'morning all' });
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] })).toMatchObject([{ uid, from: bob.id, to: channelId }]);
      });

      it('answers UnknownRecipient to a non-member, for another team’s channel and for no channel at all', async () => {
        const { carol, olga, channelId } = await cast();
        const { id: olgasChannel } = await olga.client.channels.create({ name: 'elsewhere', members: [] });
        await expectApiError(carol.client.chat.sendMessage({ to: channelId, text: 'let me in' }), {
          error: 'UnknownRecipient',
          parameter: 'to',
          description: /no channel g:\S+ in your team of which you are a member/,
        });
        await expectApiError(carol.client.chat.sendMessage({ to: olgasChannel, text: 'hi' }), { error: 'UnknownRecipient', parameter: 'to' });
        await expectApiError(carol.client.chat.sendMessage({ to: NO_CHANNEL, text: 'hi' }), { error: 'UnknownRecipient', parameter: 'to' });
      });

      it('stops a member who was removed from posting', async () => {
        const { alice, bob, channelId } = await cast();
        await bob.client.chat.sendMessage({ to: channelId, text: 'before' });
        await alice.client.channels.removeMembers({ channelId, members: [bob.id] });
        await expectApiError(bob.client.chat.sendMessage({ to: channelId, text: 'after' }), { error: 'UnknownRecipient', parameter: 'to' });
      });
    });

    describe('bots in channels', () => {
      it('posts as the bot on behalf of a member who installed its app', async () => {
        const { alice, bob, bot, app, channelId } = await cast();
        const { uid } = await bot.client.chat.sendMessage({ to: channelId, text: 'Deploy finished', onBehalfOf: bob.id });
        expect(await alice.client.chat.fetchMessages({ chat: channelId, uids: [uid] })).toEqual([
          { uid, from: bot.id, to: channelId, timestamp: expect.any(Number), text: 'Deploy finished', appId: app.id },
        ]);
      });

      it('refuses a bot without onBehalfOf, saying how to post', async () => {
        const { bot, channelId } = await cast();
        await expectApiError(bot.client.chat.sendMessage({ to: channelId, text: 'hi' }), {
          error: 'UnknownRecipient',
          parameter: 'to',
          description: /pass onBehalfOf naming a member of the channel who installed the bot's app/,
        });
      });

      it('refuses onBehalfOf naming someone who did not install the app, disabled it, or is of another team', async () => {
        const { alice, bot, dave, olga, channelId, app } = await cast();
        await alice.client.channels.addMembers({ channelId, members: [dave.id] });
        await expectApiError(bot.client.chat.sendMessage({ to: channelId, text: 'hi', onBehalfOf: dave.id }), {
          error: 'InvalidParameter',
          parameter: 'onBehalfOf',
          description: /has not installed this bot's app/,
        });
        await setInstallDisabled(storeContext(t().testStore.store.db), { id: alice.id }, { appId: app.id, disabled: true });
        await expectApiError(bot.client.chat.sendMessage({ to: channelId, text: 'hi', onBehalfOf: alice.id }), {
          error: 'InvalidParameter',
          parameter: 'onBehalfOf',
          description: /has disabled it/,
        });
        await expectApiError(bot.client.chat.sendMessage({ to: channelId, text: 'hi', onBehalfOf: olga.id }), {
          error: 'InvalidParameter',
          parameter: 'onBehalfOf',
          description: /not an active user of this bot's team/,
        });
      });

      it('refuses onBehalfOf naming an installer who is not a member of the channel', async () => {
        const { bot, carol, channelId } = await cast();
        await expectApiError(bot.client.chat.sendMessage({ to: channelId, text: 'hi', onBehalfOf: carol.id }), {
          error: 'UnknownRecipient',
          parameter: 'to',
          description: new RegExp(`of which ${carol.id} \\(onBehalfOf\\) is a member`),
        });
      });

      it('refuses onBehalfOf from a user token, and on a bot’s direct message', async () => {
        const { alice, bob, bot, channelId } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: channelId, text: 'hi', onBehalfOf: bob.id }), {
          error: 'InvalidParameter',
          parameter: 'onBehalfOf',
          description: /only for bot tokens/,
        });
        await expectApiError(bot.client.chat.sendMessage({ to: alice.id, text: 'hi', onBehalfOf: bob.id }), {
          error: 'InvalidParameter',
          parameter: 'onBehalfOf',
          description: /only to channel messages/,
        });
      });
    });

    describe('content', () => {
      it('requires text (MissingParameter naming text), even when empty', async () => {
        const { alice, bob } = await cast();
        const forms: Record<string, string>[] = [{ token: alice.token, to: bob.id }, { token: alice.token, to: bob.id, text: '' }];
        for (const form of forms) {
          const answer = await t().call('chat.sendMessage', { form });
          expect(answer.status).toBe(400);
          expect(answer.body).toEqual({ error: 'MissingParameter', parameter: 'text', description: expect.stringContaining('"text"') });
        }
      });

      it('round-trips serviceml, notification, mentions, sendAs and visibleTo', async () => {
        const { alice, bob, carol, app } = await cast();
        const sent = {
          to: bob.id,
          text: 'Ship it? Carol, Bob',
          serviceml: `<serviceml><b>Ship it?</b> <user userId="${carol.id}">Carol</user><br/><action id="yes" type="sendEvent">Yes</action></serviceml>`,
          notification: 'Alice asks: ship it?',
          mentions: [carol.id, bob.id],
          sendAs: { name: 'Release Captain', profileImage: 'https://img.example.test/captain.png' },
          visibleTo: [bob.id],
          id: 'client-1',
        };
        const { uid } = await alice.client.chat.sendMessage(sent);
        const [message] = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid] });
        const { to, ...rest } = sent;
        expect(message).toEqual({ uid, from: alice.id, to, timestamp: expect.any(Number), appId: app.id, ...rest });
      });

      it('rejects invalid ServiceML with its line and column', async () => {
        const { alice, bob } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', serviceml: '<serviceml><script>x</script></serviceml>' }), {
          error: 'InvalidParameter',
          parameter: 'serviceml',
          description: /^serviceml is not valid ServiceML: line 1:12: <script> is not a ServiceML element/,
        });
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', serviceml: '<serviceml>\n<a href="javascript:alert(1)">x</a></serviceml>' }), {
          error: 'InvalidParameter',
          parameter: 'serviceml',
          description: /line 2:\d+: .*javascript/,
        });
      });

      it('rejects mentions and visibleTo outside the team, naming the user', async () => {
        const { alice, bob, olga } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', mentions: [bob.id, olga.id] }), {
          error: 'InvalidParameter',
          parameter: 'mentions',
          description: new RegExp(`mentions names ${olga.id}, which is not an active user of your team`),
        });
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', visibleTo: [NOBODY] }), {
          error: 'InvalidParameter',
          parameter: 'visibleTo',
          description: /visibleTo names u:a{16}/,
        });
      });

      it('rejects a malformed sendAs, naming the field', async () => {
        const { alice, bob } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', sendAs: { name: 'Bot', profileImage: 'javascript:alert(1)' } }), {
          error: 'InvalidParameter',
          parameter: 'sendAs.profileImage',
          description: /http or https URL; got a javascript: URL/,
        });
        const missingName = await t().call('chat.sendMessage', { json: { token: alice.token, to: bob.id, text: 'x', sendAs: { profileImage: 'https://a.test/x.png' } } });
        expect(missingName.body).toMatchObject({ error: 'InvalidParameter', parameter: 'sendAs', description: '"sendAs.name" is required.' });
      });
    });

    describe('attachments', () => {
      const attachment = {
        id: 'build-42',
        title: 'Build #42',
        description: 'All green',
        color: '#22aa55',
        url: 'https://ci.example.test/builds/42',
        forward: true,
        views: {
          widget: { src: 'https://ci.example.test/widget/42', width: 400, height: 300 },
          serviceml: '<serviceml><b>Build</b> passed</serviceml>',
        },
        downloads: [{ src: 'https://ci.example.test/builds/42/log.txt', mime: 'text/plain', filename: 'log.txt', size: 1234 }],
        buttons: [{ name: 'Rerun', id: 'rerun', action: { type: 'sendEvent' } }],
      };

      it('stores the attachment as validated, owned by the sending app whatever appId it claims', async () => {
        const { alice, bob, app, otherApp } = await cast();
        const { uid } = await alice.client.chat.sendMessage({ to: bob.id, text: 'Build #42 passed', attachments: [{ ...attachment, appId: otherApp.id }] });
        const [message] = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [uid] });
        expect(message.attachments).toEqual([{ ...attachment, appId: app.id }]);
      });

      it('allows at most one attachment', async () => {
        const { alice, bob } = await cast();
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', attachments: [attachment, attachment] }), {
          error: 'InvalidParameter',
          parameter: 'attachments',
          description: /at most one attachment; attachments has 2/,
        });
      });

      it('names the exact path of an invalid field', async () => {
        const { alice, bob } = await cast();
        const bad = { ...attachment, views: { widget: { src: 'javascript:alert(1)', width: 1, height: 1 } } };
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', attachments: [bad] }), {
          error: 'InvalidParameter',
          parameter: 'attachments[0].views.widget.src',
          description: /must be an http or https URL/,
        });
        await expectApiError(alice.client.chat.sendMessage({ to: bob.id, text: 'x', attachments: [{ ...attachment, views: { serviceml: '<b>no root</b>' } }] }), {
          error: 'InvalidParameter',
          parameter: 'attachments[0].views.serviceml',
        });
      });
    });

    describe('encodings', () => {
      it('reads nested values as JSON strings in a form, as real JSON in a JSON body, and id lists comma-separated', async () => {
        const { alice, bob, carol } = await cast();
        const attachment = { title: 'Report', views: { widget: { src: 'https://r.example.test/w', width: 300, height: 200 } } };
        const sendAs = { name: 'Reporter' };
        const common = { to: bob.id, text: 'report' };
        const viaForm = await t().call('chat.sendMessage', {
          form: {
            token: alice.token,
            ...common,
            attachments: JSON.stringify([attachment]),
            mentions: JSON.stringify([carol.id]),
            visibleTo: JSON.stringify([bob.id]),
            sendAs: JSON.stringify(sendAs),
          },
        });
        const viaQuery = await t().call('chat.sendMessage', {
          httpMethod: 'GET',
          query: { token: alice.token, ...common, mentions: `${carol.id}, ${bob.id}`, visibleTo: bob.id, sendAs: JSON.stringify(sendAs) },
        });
        const viaJson = await t().call('chat.sendMessage', {
          json: { ...common, attachments: [attachment], mentions: [carol.id], visibleTo: [bob.id], sendAs },
          headers: { authorization: `Bearer ${alice.token}` },
        });
        for (const answer of [viaForm, viaQuery, viaJson]) expect(answer.status).toBe(200);
        const fetched = await bob.client.chat.fetchMessages({ chat: alice.id, uids: [viaForm.body.uid, viaQuery.body.uid, viaJson.body.uid] });
        expect(fetched.map(({ attachments, mentions, visibleTo, sendAs: as }) => ({ attachments, mentions, visibleTo, sendAs: as }))).toEqual([
          { attachments: [{ ...attachment, appId: expect.any(String) }], mentions: [carol.id], visibleTo: [bob.id], sendAs },
          { attachments: undefined, mentions: [carol.id, bob.id], visibleTo: [bob.id], sendAs },
          { attachments: [{ ...attachment, appId: expect.any(String) }], mentions: [carol.id], visibleTo: [bob.id], sendAs },
        ]);
      });

      it('names the parameter whose JSON string cannot be read', async () => {
        const { alice, bob } = await cast();
        const answer = await t().call('chat.sendMessage', { form: { token: alice.token, to: bob.id, text: 'x', attachments: '[{"title":' } });
        expect(answer.body).toEqual({ error: 'InvalidParameter', parameter: 'attachments', description: '"attachments" must be a JSON array; its text is not valid JSON.' });
      });
    });
  },
  roomyRateLimits,
);
