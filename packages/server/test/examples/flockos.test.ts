import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createChannel } from '../../src/core/commands/channels.js';
import { updateApp } from '../../src/core/commands/apps.js';
import { signEventToken } from '../../src/events/signing/tokens.js';
import { repoRoot } from '../cli/cli.js';
import { closeSdkApps, http, sessionFor } from '../client/harness.js';
import { startListener, type TestListener } from '../helpers/listener.js';
import { printedLines } from '../helpers/logs.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';
import { storeContext } from '../../src/core/context.js';
import { cliActor } from '../../src/core/audit/record.js';

/**
 * An app written for Flock with the official `flockos` SDK from npm (examples/flock-todo, plain
 * CommonJS as Flock's sample apps are), unmodified, in a process of its own, against a real Aviary:
 * only `flock.baseUrl` points at Aviary, and the app has Flock-compatible naming. The app takes no
 * event that flockos did not verify, so everything it answers was verified with its secret.
 */
const children: ChildProcess[] = [];
const listeners: TestListener[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(listeners.map((listener) => listener.close()));
  await closeSdkApps();
});

/** Starts the Flock app for `app`; resolves with its origin once it listens, and what it warns. */
async function startFlockApp(t: TestServer, app: { id: string; secret: string }, botToken: string) {
  const child = spawn(process.execPath, [join(repoRoot, 'examples/flock-todo/index.js')], {
    cwd: join(repoRoot, 'examples/flock-todo'),
    env: { PATH: process.env.PATH, APP_ID: app.id, APP_SECRET: app.secret, BOT_TOKEN: botToken, FLOCK_BASE_URL: `${t.url}/v1`, PORT: '0' },
  });
  children.push(child);
  const stdout = printedLines();
  const stderr = printedLines();
  child.stdout!.on('data', (chunk: Buffer) => stdout.write(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => stderr.write(chunk.toString()));
  const port = /port: (\d+)/.exec(await stdout.waitFor(/^Listening on port: \d+$/))![1];
  return { origin: `http://127.0.0.1:${port}`, warned: stderr };
}

async function flockCast(t: TestServer) {
  const team = await t.f.team();
  const aliceRow = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const bobRow = await t.f.person(team.id, { firstName: 'Bob', lastName: 'Baker' });
  const app = await t.f.app(team.id, aliceRow.id, { name: 'To-dos' });
  const bot = await t.f.bot(app.id);
  const flockApp = await startFlockApp(t, app, bot.botToken);
  const integrations = {
    slashCommands: [{ name: 'todo', description: 'Add a to-do', action: { type: 'sendEvent' } }],
    launcherButton: { name: 'To-dos', action: { type: 'openWidget', url: `${flockApp.origin}/launcher`, desktopType: 'sidebar' } },
    messageAction: { name: 'Make to-dos', action: { type: 'sendEvent' } },
    previewDomains: ['todo.example.test'],
  };
  await updateApp(storeContext(t.server.ctx.db), cliActor, { appId: app.id, listenerUrl: `${flockApp.origin}/events`, integrations });
  const { channel } = await createChannel(t.server.ctx, { user: aliceRow, appId: null }, { name: `chores-${app.id.slice(2, 8)}`, members: [bobRow.id] });
  return { app, bot, channel, flockApp, alice: await sessionFor(t, aliceRow), bob: await sessionFor(t, bobRow) };
}

forEachDialect('a Flock app on the flockos SDK', (t) => {
  it('installs, answers a slash command, a FlockML action, a message action, a launcher widget, a bot message and a preview, every event verified by flockos', { timeout: 60_000 }, async () => {
    const { app, bot, channel, flockApp, alice, bob } = await flockCast(t());
    const db = t().server.ctx.db;

    // Without Flock-compatible naming flockos finds no token it knows, so the app takes nothing.
    const refused = await bob.call('apps.install', { appId: app.id });
    expect(refused.status).not.toBe(200);
    await updateApp(storeContext(db), cliActor, { appId: app.id, flockNaming: true });
    for (const who of [alice, bob]) expect((await who.call('apps.install', { appId: app.id })).status).toBe(200);

    // The slash command posts, with Alice's token from app.install, a FlockML message with an action.
    const added = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/todo Buy milk' });
    expect(added.body.answer).toEqual({ kind: 'toast', text: 'Added #1' });
    const [posted] = (await bob.call('chat.fetchMessages', { chat: channel.id })).body;
    expect(posted).toMatchObject({ from: alice.user.id, text: 'To do: Buy milk', serviceml: '<serviceml>To do: <b>Buy milk</b> <action id="done-1" type="sendEvent">Done</action></serviceml>' });

    // groups.list, groups.getInfo and groups.getMembers, as flockos names them.
    expect((await alice.call('chat.sendFromComposer', { to: channel.id, text: '/todo channels' })).body.answer).toEqual({ kind: 'toast', text: `${channel.name}: 2 members` });

    // Bob clicks the action: the app hears client.flockmlAction.
    const done = await bob.call('interactions.runServicemlAction', { messageUid: posted.uid, actionId: 'done-1' });
    expect(done.body).toEqual({ kind: 'toast', text: 'Done: Buy milk' });
    // The developer's delivery log keeps the specification's names.
    const logged = await db.selectFrom('events').select('name').where('app_id', '=', app.id).where('name', 'like', 'client.%mlAction').execute();
    expect(logged).toEqual([{ name: 'client.servicemlAction' }]);

    // The message action fetches the selected messages with chat.fetchMessages.
    const note = await bob.call('chat.sendFromComposer', { to: channel.id, text: 'Call the plumber' });
    const picked = await alice.call('interactions.runMessageAction', { appId: app.id, chat: channel.id, messageUids: [note.body.message.uid] });
    expect(picked.body).toEqual({ kind: 'toast', text: '1 to-do(s) added' });

    // The launcher widget reads flockEvent; flockos verified flockEventToken.
    const launched = await alice.call('interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id });
    expect(launched.body).toMatchObject({ kind: 'openWidget', desktopType: 'sidebar' });
    const widgetUrl = new URL(launched.body.url);
    expect([...widgetUrl.searchParams.keys()].sort()).toEqual(
      ['flockClient', 'flockEvent', 'flockEventToken', 'flockWidgetType', 'serviceClient', 'serviceEvent', 'serviceEventToken', 'serviceWidgetType'],
    );
    const widget = await fetch(widgetUrl);
    expect(widget.status).toBe(200);
    const page = await widget.text();
    expect(page).toContain('To-dos for Alice Archer');
    expect(page).toContain('<li>✓ Buy milk</li><li>Call the plumber</li>');
    expect(page).toContain(`<script src="${t().url}/flock.js">`);
    expect((await http(t().url, 'GET', '/flock.js')).body).toContain('window.flock = Object.freeze({');

    // The bot answers a direct message (the app answers the event once its reply is posted).
    await bob.call('chat.sendFromComposer', { to: bot.botUserId, text: 'what is left?' });
    await t().server.ctx.events.idle();
    const [reply] = (await bob.call('chat.fetchMessages', { chat: bot.botUserId })).body;
    expect(reply).toMatchObject({ from: bot.botUserId, text: 'You said "what is left?"; 1 to-do(s) open.' });

    // A link of its preview domain: the preview names the message by messageId.
    const linked = await alice.call('chat.sendFromComposer', { to: channel.id, text: 'See https://todo.example.test/list' });
    await t().server.ctx.background.settled();
    const [previewed] = (await alice.call('chat.fetchMessages', { chat: channel.id })).body;
    expect(previewed.attachments).toEqual([
      { appId: app.id, title: 'A to-do link', description: `for message ${linked.body.message.uid}`, views: { serviceml: '<serviceml><b>2</b> to-dos</serviceml>' } },
    ]);
    expect(flockApp.warned.lines.filter((line) => /Invalid event token/.test(line))).toEqual([]);
  });

  it('flockos refuses a forged event: no token, a token signed with another secret, another app’s token; the app, a widget’s token', { timeout: 60_000 }, async () => {
    const { app, flockApp, bob, channel } = await flockCast(t());
    await updateApp(storeContext(t().server.ctx.db), cliActor, { appId: app.id, flockNaming: true });
    const body = JSON.stringify({ name: 'app.install', userId: bob.user.id, token: 'au_forged', userToken: 'au_forged' });
    const post = (headers: Record<string, string>, content = body) =>
      fetch(`${flockApp.origin}/events`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: content });

    // Another app of the team, also Flock-named: a genuine token of its own, as its listener got it.
    const other = await t().f.app(bob.user.team_id, bob.user.id, { flockNaming: true });
    const otherListener = await startListener();
    listeners.push(otherListener);
    await updateApp(storeContext(t().server.ctx.db), cliActor, { appId: other.id, listenerUrl: otherListener.url });
    expect((await bob.call('apps.install', { appId: other.id })).status).toBe(200);
    const [captured] = await otherListener.waitFor(1);
    const othersToken = captured!.headers['x-flock-event-token'] as string;
    expect(othersToken).toBe(captured!.headers['x-service-event-token']);

    const wrongSecret = signEventToken('as_not-the-secret', { appId: app.id, userId: bob.user.id, jti: 'ev_forged', route: 'listener', content: body }, 600, Date.now());
    for (const [token, content] of [[wrongSecret, body], [othersToken, captured!.raw.toString()]] as const) {
      expect((await post({ 'x-flock-event-token': token }, content)).status).toBe(403);
      // The refusal is flockos's own: its verifier warns, naming the token, as it answers 403.
      await flockApp.warned.waitFor(new RegExp(`^Invalid event token ${token.replaceAll('.', '\\.')}$`));
    }
    // No token: flockos 0.0.6's middleware lets it by, and its own verifyToken, which the app asks, refuses it.
    expect((await post({})).status).toBe(403);
    await flockApp.warned.waitFor(/^Got error while verifying token: JsonWebTokenError: jwt must be provided$/);
    // The genuine event is taken: the refusals above were of the forgeries only.
    expect((await bob.call('apps.install', { appId: app.id })).status).toBe(200);
    // A widget's token is genuine and this app's, but for the widget (its `route`): whoever holds the
    // widget's URL cannot post it as an event. flockos alone would take it; the app checks the route.
    const launched = await bob.call('interactions.pressButton', { appId: app.id, button: 'appLauncherButton', chat: channel.id });
    const widgetToken = new URL(launched.body.url).searchParams.get('flockEventToken')!;
    expect((await post({ 'x-flock-event-token': widgetToken })).status).toBe(403);
  });
});
