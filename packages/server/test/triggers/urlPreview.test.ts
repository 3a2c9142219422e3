import { afterAll, expect, it } from 'vitest';
import { findPreviewUrls } from '../../src/core/triggers/findPreviewUrls.js';
import { listAppEvents } from '../../src/events/history/eventHistory.js';
import { clientCast, closeSdkApps, startSdkApp } from '../client/harness.js';
import { startListener } from '../helpers/listener.js';
import { forEachDialect } from '../helpers/server.js';

afterAll(closeSdkApps);

const previewing = { previewDomains: ['preview.example.test', '*.docs.example.test'] };

const issueCard = {
  id: 'issue-7',
  title: 'Issue 7: the build is red',
  description: 'Opened by Bob',
  views: { serviceml: '<serviceml><b>open</b></serviceml>' },
};

it('finds the http and https links of a text, without the sentence punctuation after them', () => {
  const found = findPreviewUrls(
    'See https://preview.example.test/issue/7. And (http://a.docs.example.test/x), ' +
      'https://en.wikipedia.org/wiki/Bird_(disambiguation)! ftp://no.test https://preview.example.test/issue/7 again',
  );
  expect(found.map((url) => url.href)).toEqual([
    'https://preview.example.test/issue/7',
    'http://a.docs.example.test/x',
    'https://en.wikipedia.org/wiki/Bird_(disambiguation)',
  ]);
});

forEachDialect(
  'chat.generateUrlPreview',
  (t) => {
    const settled = () => t().server.ctx.background.settled();

    it('asks the app whose preview domain matches, and adds its attachment to the message for everyone', async () => {
      const { alice, bob, channel, sdkApp, app } = await clientCast(t(), previewing);
      sdkApp.answer = () => issueCard;
      const sent = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'Look: https://preview.example.test/issue/7.' });
      expect(sent.body.message).not.toHaveProperty('attachments');
      await settled();
      const [{ event, claims }] = await sdkApp.waitFor(1);
      expect(event).toEqual({
        name: 'chat.generateUrlPreview',
        userId: alice.user.id,
        url: 'https://preview.example.test/issue/7',
        chat: channel.id,
        to: channel.id,
        messageUid: sent.body.message.uid,
      });
      expect(claims).toMatchObject({ appId: app.id, userId: alice.user.id });
      const [seen] = (await bob.call('chat.fetchMessages', { chat: channel.id })).body;
      expect(seen).toEqual({ ...sent.body.message, attachments: [{ ...issueCard, appId: app.id }] });
    });

    it('adds the preview to a message sent through /v1 too, shown by chat.fetchMessages, and accepts the attachment unwrapped', async () => {
      const { alice, bob } = await clientCast(t());
      const listener = await startListener(() => ({ status: 200, body: JSON.stringify(issueCard) }));
      const app = await t().f.app(alice.user.team_id, alice.user.id, { listenerUrl: listener.url, integrations: previewing });
      const { token } = await t().f.install(app.id, alice.user.id);
      const { uid } = await t().client(token).chat.sendMessage({ to: bob.user.id, text: 'https://guide.docs.example.test/start' });
      await settled();
      const [message] = await t().client(token).chat.fetchMessages({ chat: bob.user.id, uids: [uid] });
      expect(message.attachments).toEqual([{ ...issueCard, appId: app.id }]);
      expect(listener.received[0].body).toMatchObject({ name: 'chat.generateUrlPreview', url: 'https://guide.docs.example.test/start', chat: bob.user.id });
      await listener.close();
    });

    it('drops an answer that is not a valid attachment, and records why for the developer', async () => {
      const { alice, channel, sdkApp, app } = await clientCast(t(), previewing);
      sdkApp.answer = () => ({ title: 42, views: { widget: { src: 'javascript:alert(1)' } } });
      const sent = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'https://preview.example.test/bad' });
      await settled();
      const [message] = (await alice.call('chat.fetchMessages', { chat: channel.id })).body;
      expect(message).toEqual(sent.body.message);
      const [recorded] = await listAppEvents(t().testStore.store.db, app.id, {});
      expect(recorded).toMatchObject({ name: 'chat.generateUrlPreview', status: 'delivered', lastError: expect.stringMatching(/not a valid attachment.*attachment\.title/) });
    });

    it('never holds the send back: a preview slower than the limit is given up and the message stays as sent', async () => {
      const { alice, bob, sdkApp, app } = await clientCast(t(), previewing);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      sdkApp.answer = async () => {
        await gate;
        return issueCard;
      };
      const sent = await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'slow https://preview.example.test/slow' });
      expect(sent.status).toBe(200);
      // The app holds the event, and the send has been answered and is readable all the same.
      await sdkApp.waitFor(1);
      expect(await listAppEvents(t().testStore.store.db, app.id, {})).toEqual([]);
      expect((await bob.call('chat.fetchMessages', { chat: alice.user.id })).body).toEqual([sent.body.message]);

      await settled();
      expect(await listAppEvents(t().testStore.store.db, app.id, {})).toMatchObject([{ status: 'failed', lastReason: 'timeout' }]);
      // The app answers after all, too late (the server has hung up): once its answer is out and
      // background work is done, nothing has changed.
      release();
      await gate;
      await settled();
      expect((await bob.call('chat.fetchMessages', { chat: alice.user.id })).body).toEqual([sent.body.message]);
    });

    it('adds at most one preview: none to a message with an attachment, and only the first link an app answers for', async () => {
      const { alice, bob, bot, sdkApp, app } = await clientCast(t(), previewing);
      sdkApp.answer = (event) => ((event as { url: string }).url.endsWith('/second') ? { title: 'Second' } : undefined);
      const text = 'https://preview.example.test/first https://nobody.example.test/x https://preview.example.test/second https://a.docs.example.test/third';
      const { uid } = await t().client(bot.botToken).chat.sendMessage({ to: alice.user.id, text, attachments: [{ title: 'Own' }] });
      await settled();
      expect(sdkApp.received).toEqual([]);

      const sent = await alice.call('chat.sendFromComposer', { to: bob.user.id, text });
      await settled();
      expect(sdkApp.received.map(({ event }) => (event as { url: string }).url)).toEqual([
        'https://preview.example.test/first',
        'https://preview.example.test/second',
      ]);
      const [message] = (await bob.call('chat.fetchMessages', { chat: alice.user.id })).body;
      expect(message.attachments).toEqual([{ title: 'Second', appId: app.id }]);
      expect(message.uid).toBe(sent.body.message.uid);
      expect(uid).not.toBe(message.uid);
    });

    it('asks every app that covers the host, oldest first, until one answers', async () => {
      const { alice, bob, sdkApp } = await clientCast(t(), previewing);
      const second = await startSdkApp(t(), { teamId: alice.user.team_id, developerId: alice.user.id, integrations: previewing });
      await t().f.install(second.app.id, alice.user.id);
      sdkApp.answer = () => undefined;
      second.answer = () => ({ title: 'From the second app' });
      await alice.call('chat.sendFromComposer', { to: bob.user.id, text: 'https://preview.example.test/shared' });
      await settled();
      expect([sdkApp.received.length, second.received.length]).toEqual([1, 1]);
      const [message] = (await bob.call('chat.fetchMessages', { chat: alice.user.id })).body;
      expect(message.attachments).toEqual([{ title: 'From the second app', appId: second.app.id }]);
    });
  },
  {},
  { events: { urlPreviewTimeoutMs: 400 } },
);
