import { describe, expect, it } from 'vitest';
import { forEachDialect } from '../helpers/server.js';
import { expectApiError, roomyRateLimits } from '../methods/chat-cast.js';
import { curlHook, hookCast, postHook } from './hookCast.js';

/** Incoming webhooks (docs/reference/webhooks.md): made with a method, posted to with a plain POST. */
forEachDialect(
  'incoming webhooks',
  (t) => {
    const cast = () => hookCast(t());
    const newest = async (reader: { client: any }, chat: string) => (await reader.client.chat.fetchMessages({ chat, limit: 1 }))[0];

    it('a person’s webhook posts Aviary’s own payload as them, named as the integration, and answers JSON', async () => {
      const c = await cast();
      const made = await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'CI', iconUrl: 'https://ci.example.com/icon.png' });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const { webhook, url, path } = made.body;
      expect(url).toBe(path);
      expect(path).toMatch(/^\/hooks\/wh_[a-z2-7]{16}\/[A-Za-z0-9_-]{43}$/);
      expect(webhook).toMatchObject({ channel: c.channelId, name: 'CI', createdBy: c.alice.id, iconUrl: 'https://ci.example.com/icon.png' });
      expect(webhook.appId).toBeUndefined();

      const attachments = [{ title: 'Build 812', color: '#22AA44', url: 'https://ci.example.com/812' }];
      const answer = await postHook(t().url, path, JSON.stringify({ text: 'Build passed', serviceml: '<serviceml><b>Build</b> passed</serviceml>', attachments }));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.contentType).toMatch(/application\/json/);
      expect(answer.body).toEqual({ ok: true, uid: expect.any(String) });
      const message = await newest(c.bob, c.channelId);
      expect(message).toMatchObject({
        uid: answer.body.uid,
        from: c.alice.id,
        text: 'Build passed',
        serviceml: '<serviceml><b>Build</b> passed</serviceml>',
        sendAs: { name: 'CI', profileImage: 'https://ci.example.com/icon.png' },
        webhookId: webhook.id,
        attachments: [{ title: 'Build 812', color: '#22aa44', url: 'https://ci.example.com/812' }],
      });
      expect(message.appId).toBeUndefined();
      const listed = await c.aliceSession('webhooks.list', {});
      // Its last use is recorded with its message, at the message's own time.
      expect(listed.body.webhooks).toEqual([{ ...webhook, lastUsedAt: message.timestamp }]);
    });

    it('takes a Slack-shaped payload from curl: blocks, mrkdwn and an attachment, answered "ok"', async () => {
      const c = await cast();
      const { path } = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'Alerts' })).body;
      const payload = {
        text: 'Deploy *finished* for <https://example.com/app|the app>',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Deploy finished' } },
          { type: 'section', text: { type: 'mrkdwn', text: '*prod* is on _v2.3_ — <https://example.com/diff|diff> & more' }, fields: [{ type: 'mrkdwn', text: '*By:* Maya' }] },
          { type: 'divider' },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'took 3 min' }, { type: 'image', image_url: 'https://x.example/i.png', alt_text: 'i' }] },
          { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open' }, url: 'https://example.com/app' }, { type: 'button', text: { type: 'plain_text', text: 'Roll back' }, action_id: 'rollback' }] },
          { type: 'image', image_url: 'https://example.com/graph.png', alt_text: 'latency graph' },
          { type: 'rich_text', elements: [] },
        ],
        attachments: [{ color: 'good', title: 'Checks', title_link: 'https://example.com/checks', text: 'all green', fields: [{ title: 'Tests', value: '812', short: true }] }],
        username: 'ignored-bot',
        icon_emoji: ':rocket:',
      };
      const answer = await curlHook(`${t().url}${path}`, ['-H', 'Content-type: application/json', '--data-binary', JSON.stringify(payload)]);
      expect(answer).toEqual({ status: 200, body: 'ok' });
      const message = await newest(c.bob, c.channelId);
      expect(message.text).toBe('Deploy finished for the app (https://example.com/app)');
      expect(message.sendAs).toEqual({ name: 'Alerts' });
      expect(message.serviceml).toBe(
        '<serviceml><b>Deploy finished</b><br/><b>prod</b> is on <i>v2.3</i> — <a href="https://example.com/diff">diff</a> &amp; more<br/><b>By:</b> Maya' +
          '<br/>──────────<br/>took 3 min<br/><a href="https://example.com/app">Open</a><br/><a href="https://example.com/graph.png">latency graph</a></serviceml>',
      );
      expect(message.attachments).toEqual([
        { title: 'Checks', url: 'https://example.com/checks', color: '#2eb886', description: 'all green\nTests: 812' },
      ]);
    });

    it('takes Slack’s form style (payload=) from curl, and {text} alone answered "ok" unless JSON is asked for', async () => {
      const c = await cast();
      const { path } = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'Form' })).body;
      const form = await curlHook(`${t().url}${path}`, ['--data-urlencode', `payload=${JSON.stringify({ text: 'from a _form_' })}`]);
      expect(form).toEqual({ status: 200, body: 'ok' });
      expect(await newest(c.bob, c.channelId)).toMatchObject({ text: 'from a form', serviceml: '<serviceml>from a <i>form</i></serviceml>' });
      const plain = await postHook(t().url, path, JSON.stringify({ text: 'plain' }));
      expect([plain.status, plain.body]).toEqual([200, 'ok']);
      const asJson = await postHook(t().url, path, JSON.stringify({ text: 'kept *as* written' }), 'application/json', { accept: 'application/json' });
      expect(asJson.body).toEqual({ ok: true, uid: expect.any(String) });
      expect(await newest(c.bob, c.channelId)).toMatchObject({ text: 'kept *as* written' });
      expect((await newest(c.bob, c.channelId)).serviceml).toBeUndefined();
    });

    it('refuses bad payloads with the parameter, and answers 404 alike for a wrong secret, an unknown id and a revoked webhook', async () => {
      const c = await cast();
      const { path, webhook } = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'Strict' })).body;
      const refusals: Array<[string, string, object]> = [
        ['{"text": ', 'application/json', { status: 400, body: { error: 'InvalidRequestData' } }],
        ['{}', 'application/json', { status: 400, body: { error: 'MissingParameter', parameter: 'text' } }],
        ['{"text": "x", "serviceml": "<serviceml><div/></serviceml>"}', 'application/json', { status: 400, body: { error: 'InvalidParameter', parameter: 'serviceml' } }],
        ['{"text": "x", "attachments": [{"title": "t", "color": "red"}]}', 'application/json', { status: 400, body: { error: 'InvalidParameter', parameter: 'attachments[0].color' } }],
        ['{"text": "x", "blocks": {"type": "divider"}}', 'application/json', { status: 400, body: { error: 'InvalidParameter', parameter: 'blocks' } }],
        ['{"blocks": [{"type": "divider", "x": 1}, {"text": 1}]}', 'application/json', { status: 400, body: { error: 'InvalidParameter', parameter: 'blocks[1].type' } }],
        ['{"text": "x", "sendAs": {"name": "Boss"}}', 'application/json', { status: 400, body: { error: 'InvalidParameter', parameter: 'sendAs' } }],
        ['[1]', 'application/json', { status: 400, body: { error: 'InvalidParameter' } }],
        ['text=hello', 'application/x-www-form-urlencoded', { status: 400, body: { error: 'MissingParameter', parameter: 'payload' } }],
        ['hello', 'text/plain', { status: 400, body: { error: 'InvalidRequestData' } }],
      ];
      for (const [body, type, expected] of refusals) {
        const answer = await postHook(t().url, path, body, type);
        expect(answer, body).toMatchObject(expected);
        expect(typeof answer.body.description, body).toBe('string');
      }
      const huge = await postHook(t().url, path, JSON.stringify({ text: 'x'.repeat(300 * 1024) }));
      expect(huge).toMatchObject({ status: 413, body: { error: 'RequestTooLarge' } });

      const wrongSecret = await postHook(t().url, path.replace(/\/[^/]+$/, `/${'A'.repeat(43)}`), '{"text":"x"}');
      const unknownId = await postHook(t().url, path.replace(/wh_[a-z2-7]{16}/, 'wh_aaaaaaaaaaaaaaaa'), '{"text":"x"}');
      expect(wrongSecret).toMatchObject({ status: 404, body: { error: 'UnknownWebhook' } });
      expect(unknownId.body).toEqual(wrongSecret.body);
      expect((await c.aliceSession('webhooks.revoke', { webhook: webhook.id })).status).toBe(200);
      const revoked = await postHook(t().url, path, '{"text":"x"}');
      expect([revoked.status, revoked.body]).toEqual([404, wrongSecret.body]);
    });

    it('an app’s token makes a webhook that posts through the app; a bot’s posts on behalf of the member it names', async () => {
      const c = await cast();
      const byUser = await c.alice.client.webhooks.create({ channel: c.channelId, name: 'Deploys' });
      expect(byUser.webhook.appId).toBe(c.app.id);
      await postHook(t().url, byUser.path, '{"text":"via the app"}');
      expect(await newest(c.bob, c.channelId)).toMatchObject({ text: 'via the app', from: c.alice.id, appId: c.app.id, webhookId: byUser.webhook.id });

      await expectApiError(c.bot.client.webhooks.create({ channel: c.channelId, name: 'Bot hook' }), { error: 'UnknownRecipient', parameter: 'channel', description: /onBehalfOf/ });
      const byBot = await c.bot.client.webhooks.create({ channel: c.channelId, name: 'Bot hook', onBehalfOf: c.bob.id });
      await postHook(t().url, byBot.path, '{"text":"bot says"}');
      expect(await newest(c.alice, c.channelId)).toMatchObject({ text: 'bot says', from: c.bot.id, appId: c.app.id, sendAs: { name: 'Bot hook' } });
      // Each app lists its own.
      expect((await c.alice.client.webhooks.list({})).webhooks.map((w) => w.id)).toEqual([byUser.webhook.id]);
      expect((await c.aliceSession('webhooks.list', {})).body.webhooks).toEqual([]);
    });

    it('is refused once its maker may no longer post to the channel', async () => {
      const c = await cast();
      const { path } = (await c.bobSession('webhooks.create', { channel: c.channelId, name: 'Bob’s hook' })).body;
      expect((await postHook(t().url, path, '{"text":"before"}')).status).toBe(200);
      await c.alice.client.channels.removeMembers({ channelId: c.channelId, members: [c.bob.id] });
      const after = await postHook(t().url, path, '{"text":"after"}');
      expect(after).toMatchObject({ status: 403, body: { error: 'PermissionDenied', description: expect.stringMatching(/maker may no longer post/) } });
      expect((await newest(c.alice, c.channelId)).text).toBe('before');
    });

    it('makes no @channel or @here mention, whatever the payload says, even past the team’s limit on them', async () => {
      const c = await cast();
      const db = t().testStore.store.db;
      await db.updateTable('teams').set({ broadcast_mention_limit: 1 }).where('id', '=', c.team.id).execute();
      const { path } = (await c.bobSession('webhooks.create', { channel: c.channelId, name: 'CI' })).body;
      const slack = await postHook(t().url, path, JSON.stringify({ text: 'Deploy done <!channel> please check' }));
      expect(slack.status, JSON.stringify(slack.body)).toBe(200);
      const aviary = await postHook(t().url, path, JSON.stringify({ text: '@here deploy done' }));
      expect(aviary.status, JSON.stringify(aviary.body)).toBe(200);
      const rows = await db.selectFrom('messages').select(['text', 'mentions']).where('chat_key', '=', c.channelId).where('webhook_id', 'is not', null).orderBy('uid').execute();
      expect(rows).toEqual([
        { text: 'Deploy done @channel please check', mentions: null },
        { text: '@here deploy done', mentions: null },
      ]);
    });

    it('answers 409 ChannelArchived, naming no parameter, while its channel is archived', async () => {
      const c = await cast();
      const { path } = (await c.bobSession('webhooks.create', { channel: c.channelId, name: 'CI' })).body;
      await t().testStore.store.db.updateTable('channels').set({ archived_at: Date.now() }).where('id', '=', c.channelId).execute();
      const answer = await postHook(t().url, path, '{"text":"into the archive"}');
      expect(answer).toMatchObject({ status: 409, body: { error: 'ChannelArchived', description: expect.stringMatching(/webhook’s channel is archived|webhook's channel is archived/) } });
      expect(answer.body.parameter).toBeUndefined();
    });

    describe('who sees and revokes', () => {
      it('a channel member lists its webhooks (never the URL); a moderator revokes any; a plain member only their own', async () => {
        const c = await cast();
        const alices = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'Alice hook' })).body.webhook;
        const bobs = (await c.bobSession('webhooks.create', { channel: c.channelId, name: 'Bob hook' })).body.webhook;
        const listed = await c.bobSession('webhooks.list', { channel: c.channelId });
        expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([alices.id, bobs.id]);
        expect(JSON.stringify(listed.body)).not.toMatch(/hooks\//);
        const carol = await c.asPerson(c.carol.id);
        expect((await carol('webhooks.list', { channel: c.channelId })).body).toMatchObject({ error: 'UnknownChannel', parameter: 'channel' });
        expect((await carol('webhooks.revoke', { webhook: alices.id })).body).toMatchObject({ error: 'UnknownWebhook', parameter: 'webhook' });
        expect((await c.bobSession('webhooks.revoke', { webhook: alices.id })).body).toMatchObject({ error: 'PermissionDenied' });
        expect((await c.bobSession('webhooks.revoke', { webhook: bobs.id })).status).toBe(200);
        expect((await c.aliceSession('webhooks.revoke', { webhook: alices.id })).status).toBe(200);
        expect((await c.aliceSession('webhooks.list', { channel: c.channelId })).body.webhooks).toEqual([]);
        expect((await c.aliceSession('webhooks.revoke', { webhook: alices.id })).status).toBe(404);
      });

      it('refuses a channel the maker cannot post to and a name a person could be mistaken for', async () => {
        const c = await cast();
        expect((await (await c.asPerson(c.carol.id))('webhooks.create', { channel: c.channelId, name: 'x' })).body).toMatchObject({ error: 'UnknownRecipient', parameter: 'channel' });
        expect((await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'x', iconUrl: 'javascript:alert(1)' })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'iconUrl' });
        expect((await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'x', onBehalfOf: c.bob.id })).status).toBe(400);
        // An archived channel: refused, naming this method's own parameter.
        await t().testStore.store.db.updateTable('channels').set({ archived_at: Date.now() }).where('id', '=', c.channelId).execute();
        expect((await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'x' })).body).toMatchObject({ error: 'ChannelArchived', parameter: 'channel' });
      });
    });
  },
  { rateLimits: { ...roomyRateLimits.rateLimits, webhook: { rate: 10_000, burst: 10_000 } } },
);

/** The per-webhook limit, on its own server: a small burst that does not refill during the test. */
forEachDialect(
  'incoming webhooks’ rate limit',
  (t) => {
    it('answers 429 with Retry-After past the burst, per webhook', async () => {
      const c = await hookCast(t());
      const one = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'One' })).body.path;
      const two = (await c.aliceSession('webhooks.create', { channel: c.channelId, name: 'Two' })).body.path;
      for (let i = 0; i < 3; i++) expect((await postHook(t().url, one, '{"text":"x"}')).status).toBe(200);
      const limited = await postHook(t().url, one, '{"text":"x"}');
      expect(limited).toMatchObject({ status: 429, body: { error: 'TooManyRequests', retryAfter: expect.any(Number) } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await postHook(t().url, two, '{"text":"x"}')).status).toBe(200);
    });
  },
  { rateLimits: { webhook: { rate: 1 / 3600, burst: 3 } } },
);
