/**
 * Deferred replies through an event's responseUrl, against a real Aviary on loopback (both dialects) and
 * a real app on the SDK's app layer (createApp, mounted on node:http): `ctx.ack()` answers at once and
 * `ctx.respond()` replies after the answer window (made short here, 300 ms, so that no test sleeps long);
 * a reply is visible to the person only, or to the chat, or replaces the message that carried the
 * button; the URL takes 5 replies, expires after 30 minutes (the server's clock, moved forward), and a
 * forged one is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, respondTo, type AviaryApp, type AviaryEvent } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { http, sessionFor } from '../client/harness.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

const answerWindowMs = 300;
let clockOffset = 0;
const now = (): number => Date.now() + clockOffset;
const servers: Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A node:http server for an SDK app that is made once the app row (its id and secret) exists. */
async function listenerFor(): Promise<{ url: string; mount(app: AviaryApp): void }> {
  let mounted: AviaryApp | undefined;
  const server = createServer((req, res) => (mounted ? mounted.listener.node(req, res) : res.writeHead(503).end()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, mount: (app) => (mounted = app) };
}

/** Resolves after `ms` of real time: the answer window has to pass for real, and it is 300 ms. */
const pastTheWindow = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, answerWindowMs + 100));

/** Maya and Lucas in a channel, an app of Maya's with a slash command and a bot, on the SDK's app layer. */
async function cast(t: TestServer) {
  const team = await t.f.team();
  const maya = await t.f.person(team.id, { firstName: 'Maya', lastName: 'Okafor' });
  const lucas = await t.f.person(team.id, { firstName: 'Lucas', lastName: 'Moreau' });
  const listener = await listenerFor();
  const row = await t.f.app(team.id, maya.id, {
    listenerUrl: listener.url,
    integrations: { slashCommands: [{ name: 'report', action: { type: 'sendEvent' } }], previewDomains: [] },
  });
  const bot = await t.f.bot(row.id);
  const app = createApp({ appId: row.id, appSecret: row.secret, baseUrl: t.url, botToken: bot.botToken, now, logger: { warn: () => undefined } });
  listener.mount(app);
  await t.f.install(row.id, maya.id);
  const { channel } = await createChannel({ ...t.server.ctx, now }, { user: maya, appId: null }, { name: 'reports', members: [lucas.id] });
  const asMaya = await sessionFor(t, maya);
  const asLucas = await sessionFor(t, lucas);
  const texts = async (who: typeof asMaya): Promise<string[]> =>
    ((await who.call('chat.fetchMessages', { chat: channel.id })).body as Array<{ text: string }>).map((message) => message.text);
  return { app, row, bot, maya, lucas, channel, asMaya, asLucas, texts };
}

/** Runs `/report` in the channel as Maya; resolves with the composer's answer. */
const report = (c: Awaited<ReturnType<typeof cast>>) => c.asMaya.call('chat.sendFromComposer', { to: c.channel.id, text: '/report weekly' });

forEachDialect(
  'responseUrl: deferred replies',
  (t) => {
    it('ack() answers at once; respond() after the answer window reaches the person alone, then the chat', async () => {
      const c = await cast(t());
      let released!: () => void;
      const later = new Promise<void>((resolve) => (released = resolve));
      const replies: unknown[] = [];
      c.app.command('report', async (event, ctx) => {
        ctx.ack({ text: 'Working on it' });
        await later;
        replies.push(await ctx.respond({ text: `Only you see this, ${event.userName}` }));
        replies.push(await ctx.respond({ text: 'The weekly report is ready', responseType: 'inChat' }));
      });
      const answered = await report(c);
      expect(answered.body.answer).toEqual({ kind: 'toast', text: 'Working on it' });
      await pastTheWindow();
      released();
      await expect.poll(() => replies.length).toBe(2);
      expect(replies).toEqual([
        { uid: expect.any(String), repliesLeft: 4 },
        { uid: expect.any(String), repliesLeft: 3 },
      ]);
      expect(await c.texts(c.asMaya)).toEqual(['The weekly report is ready', 'Only you see this, Maya Okafor']);
      // Lucas, in the same channel, sees the reply to the chat only.
      expect(await c.texts(c.asLucas)).toEqual(['The weekly report is ready']);
      // The delivery log keeps the event without the URL's token.
      const stored = await t().testStore.store.db.selectFrom('events').select('payload').where('app_id', '=', c.row.id).where('name', '=', 'client.slashCommand').executeTakeFirstOrThrow();
      expect(JSON.parse(stored.payload).responseUrl).toMatch(/\/api\/respond\/\[redacted\]$/);
    });

    it('ack() and respond() over Socket Mode: no listener URL, the same answer and the same late reply', async () => {
      const c = await cast(t());
      await t().testStore.store.db.updateTable('apps').set({ listener_url: null }).where('id', '=', c.row.id).execute();
      const quiet = { info: () => undefined, warn: () => undefined };
      const receiver = c.app.socketMode({ logger: quiet });
      await receiver.start();
      try {
        let released!: () => void;
        const later = new Promise<void>((resolve) => (released = resolve));
        let replied: Promise<unknown> | undefined;
        c.app.command('report', async (_event, ctx) => {
          ctx.ack({ text: 'On it (socket)' });
          await later;
          replied = ctx.respond('Only you see this (socket)');
        });
        expect((await report(c)).body.answer).toEqual({ kind: 'toast', text: 'On it (socket)' });
        await pastTheWindow();
        released();
        await expect.poll(() => replied).toBeDefined();
        expect(await replied).toMatchObject({ repliesLeft: 4 });
        expect(await c.texts(c.asMaya)).toEqual(['Only you see this (socket)']);
        expect(await c.texts(c.asLucas)).toEqual([]);
      } finally {
        await receiver.stop();
      }
    });

    it('a handler slower than the answer window without ack() fails the event, as before', async () => {
      const c = await cast(t());
      c.app.command('report', async () => {
        await pastTheWindow();
        return { text: 'too late' };
      });
      const answered = await report(c);
      expect(answered.status).toBe(502);
      expect(answered.body).toMatchObject({ error: 'AppUnreachable' });
    });

    it('the synchronous answer style still works, and the event carries its responseUrl', async () => {
      const c = await cast(t());
      const seen: AviaryEvent[] = [];
      c.app.command('report', (event) => {
        seen.push(event);
        return { text: 'Done' };
      });
      expect((await report(c)).body.answer).toEqual({ kind: 'toast', text: 'Done' });
      expect(seen[0]).toMatchObject({ name: 'client.slashCommand', responseUrl: expect.stringMatching(new RegExp(`^${t().url}/api/respond/as_r_[\\w-]{43}$`)) });
    });

    it('replaces the app’s message whose button was pressed', async () => {
      const c = await cast(t());
      const { uid } = await t()
        .client(c.bot.botToken)
        .chat.sendMessage({
          to: c.channel.id,
          onBehalfOf: c.maya.id,
          text: 'Deploy #42?',
          attachments: [{ id: 'deploy-42', title: 'Deploy #42', buttons: [{ id: 'approve', name: 'Approve', action: { type: 'sendEvent' } }] }],
        });
      let replaced: Promise<unknown> | undefined;
      c.app.action('approve', (_event, ctx) => {
        ctx.ack();
        replaced = ctx.respond({ text: 'Deploy #42 approved by Lucas', replaceOriginal: true, attachments: [] });
      });
      const pressed = await c.asLucas.call('interactions.pressButton', { button: 'attachmentButton', messageUid: uid, attachmentId: 'deploy-42', buttonId: 'approve' });
      expect(pressed.body).toEqual({ kind: 'none' });
      await expect.poll(() => replaced).toBeDefined();
      expect(await replaced).toEqual({ uid, repliesLeft: 4 });
      const [message] = (await c.asMaya.call('chat.fetchMessages', { chat: c.channel.id, uids: [uid] })).body;
      expect(message).toMatchObject({ uid, text: 'Deploy #42 approved by Lucas', editedAt: expect.any(Number) });
      expect(message.attachments).toBeUndefined();
    });

    it('a member who pressed a bot’s button without installing the app gets an ephemeral reply in their chat with the bot; one to the channel is refused', async () => {
      const c = await cast(t());
      const { uid } = await t()
        .client(c.bot.botToken)
        .chat.sendMessage({ to: c.channel.id, onBehalfOf: c.maya.id, text: 'Vote', attachments: [{ id: 'vote', buttons: [{ id: 'yes', name: 'Yes', action: { type: 'sendEvent' } }] }] });
      const urls: string[] = [];
      c.app.action('yes', (event) => void urls.push((event as { responseUrl: string }).responseUrl));
      await c.asLucas.call('interactions.pressButton', { button: 'attachmentButton', messageUid: uid, attachmentId: 'vote', buttonId: 'yes' });
      const toChannel = await http(urls[0], 'POST', '', { json: { text: 'Lucas voted', responseType: 'inChat' } });
      expect(toChannel.body).toMatchObject({ error: 'InvalidParameter', parameter: 'responseType', description: expect.stringMatching(/has not installed/) });
      expect((await http(urls[0], 'POST', '', { json: { text: 'Your vote counts' } })).body).toMatchObject({ repliesLeft: 4 });
      const withBot = (await c.asLucas.call('chat.fetchMessages', { chat: c.bot.botUserId })).body as Array<{ text: string; visibleTo?: string[] }>;
      expect(withBot).toEqual([expect.objectContaining({ text: 'Your vote counts', visibleTo: [c.lucas.id] })]);
      expect(await c.texts(c.asLucas)).toEqual(['Vote']);
    });

    it('takes 5 replies and refuses the 6th; refuses replaceOriginal without a message, and bad content without using a reply', async () => {
      const c = await cast(t());
      const urls: string[] = [];
      c.app.command('report', (event) => void urls.push((event as { responseUrl: string }).responseUrl));
      await report(c);
      const [url] = urls;
      expect((await http(url, 'POST', '', { json: { text: 'x', replaceOriginal: true } })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'replaceOriginal' });
      expect((await http(url, 'POST', '', { json: { text: 'x', serviceml: '<serviceml><nope>' } })).body).toMatchObject({ error: 'InvalidParameter', parameter: 'serviceml' });
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => respondTo(url, { text: `reply ${n}` })));
      expect(results.map((result) => result.repliesLeft).sort()).toEqual([0, 1, 2, 3, 4]);
      const sixth = await http(url, 'POST', '', { json: { text: 'reply 6' } });
      expect(sixth.status).toBe(410);
      expect(sixth.body).toMatchObject({ error: 'ResponseUrlUsedUp', description: expect.stringMatching(/5 replies/) });
      await expect(respondTo(url, { text: 'reply 7' })).rejects.toMatchObject({ code: 'ResponseUrlUsedUp', status: 410 });
      expect((await c.texts(c.asMaya)).filter((text) => text.startsWith('reply '))).toHaveLength(5);
    });

    it('refuses a URL 30 minutes after its event (the server’s clock) and a forged one', async () => {
      const c = await cast(t());
      const urls: string[] = [];
      c.app.command('report', (event) => void urls.push((event as { responseUrl: string }).responseUrl));
      await report(c);
      await report(c);
      const [first, second] = urls;
      expect((await http(first, 'POST', '', { json: { text: 'in time' } })).status).toBe(200);
      clockOffset += 30 * 60 * 1000 + 1;
      const expired = await http(second, 'POST', '', { json: { text: 'too late' } });
      expect(expired.status).toBe(410);
      expect(expired.body).toMatchObject({ error: 'ResponseUrlExpired', description: expect.stringMatching(/30 minutes/) });
      const forged = await http(t().url, 'POST', `/api/respond/as_r_${'A'.repeat(43)}`, { json: { text: 'hello' } });
      expect(forged.status).toBe(404);
      expect(forged.body).toMatchObject({ error: 'UnknownResponseUrl', parameter: 'token' });
      // One character changed is as unknown as a made-up token.
      const altered = second.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
      expect((await http(altered, 'POST', '', { json: { text: 'hello' } })).body).toMatchObject({ error: 'UnknownResponseUrl' });
      expect(await c.texts(c.asLucas)).toEqual([]);
    });

    it('acts with the rights of the moment: a reply is refused once the team disabled the app', async () => {
      const c = await cast(t());
      const urls: string[] = [];
      c.app.command('report', (event) => void urls.push((event as { responseUrl: string }).responseUrl));
      await report(c);
      const admin = await t().f.person(c.row.team_id, { role: 'admin' });
      expect((await (await sessionFor(t(), admin)).call('apps.disableForTeam', { appId: c.row.id })).status).toBe(200);
      const refused = await http(urls[0], 'POST', '', { json: { text: 'still here?' } });
      expect(refused.body).toMatchObject({ error: 'AppDisabled' });
    });
  },
  {},
  { now, events: { clientEventTimeoutMs: answerWindowMs } },
);
