import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLog } from '../../src/log.js';
import { repoRoot } from '../cli/cli.js';
import { clientCast, closeSdkApps } from '../client/harness.js';
import { answerWithSdk, startListener, type TestListener } from '../helpers/listener.js';
import { captureLog, printedLines } from '../helpers/logs.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

/**
 * `aviary listen` as a developer runs it: the real command, in a process of its own, against a real
 * server on port 0, forwarding to a real SDK listener on loopback. Installs, slash commands and
 * asynchronous events go through it and their answers come back; it prints one line per event; once it
 * stops, the listener URL gets the events again. (The in-process tests are in listen.test.ts.)
 */
let t: TestServer;
/** What the server logs: a listen connection's opening and closing are lines of it. */
const serverLog = captureLog();
const listeners: TestListener[] = [];
let child: ChildProcess | undefined;

beforeAll(async () => {
  t = await startTestServer('sqlite', {}, { events: { pollIntervalMs: 50 }, log: createLog({ logLevel: 'info' }, serverLog.destination) });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await closeSdkApps();
  await Promise.all(listeners.map((listener) => listener.close()));
  await stopTestServer(t);
});

/** Starts `aviary listen …`; `printed(pattern)` resolves once a line it prints matches. */
function startListen(args: string[]) {
  const started = spawn(process.execPath, [join(repoRoot, 'packages/server/bin/aviary.js'), 'listen', ...args], {
    cwd: repoRoot,
    env: { ...process.env, AVIARY_TOKEN: '', AVIARY_APP_SECRET: '' },
  });
  child = started;
  const stdout = printedLines();
  let stderr = '';
  started.stdout.on('data', (chunk: Buffer) => stdout.write(chunk.toString()));
  started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => started.once('exit', resolve));
  return {
    printed: (pattern: RegExp) => within(15_000, stdout.waitFor(pattern), () => `nothing printed matched ${pattern}: ${stdout.lines.join('\n')}\n${stderr}`),
    stop: () => (started.kill('SIGINT'), exited),
  };
}

it('aviary listen forwards installs, slash commands and asynchronous events to the local SDK listener, prints a line for each, and gives them back to the listener URL when it stops', { timeout: 60_000 }, async () => {
  const integrations = { slashCommands: [{ name: 'weather', description: 'The forecast', action: { type: 'sendEvent' } }] };
  const { app, sdkApp, alice, bob, channel } = await clientCast(t, integrations);
  const laptop = await startListener(answerWithSdk);
  listeners.push(laptop);
  const tokens: string[] = [];
  laptop.verifyAs(app.id, app.secret, {
    onError: () => undefined,
    onEvent: async (event) => {
      if (event.name === 'app.install') tokens.push(event.token);
      return (event.name === 'client.slashCommand' ? { text: `Sunny in ${event.text}, from the laptop` } : undefined) as never;
    },
  });

  const listen = startListen(['--app', app.id, '--forward-to', laptop.url, '--server', t.url, '--secret', app.secret]);
  await listen.printed(new RegExp(`^listening for ${app.id}'s events on `));
  await serverLog.waitFor((line) => line.msg === "a listen connection opened: the app's events go to it" && line.appId === app.id);
  expect(t.server.ctx.events.tunnels.has(app.id)).toBe(true);

  // Synchronous: Bob's install succeeds only on the laptop's 200, and the token it got works.
  expect((await bob.call('apps.install', { appId: app.id })).status).toBe(200);
  expect(tokens).toHaveLength(1);
  expect((await t.call('users.getInfo', { query: { token: tokens[0]! } })).body).toMatchObject({ id: bob.user.id });
  const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather Paris' });
  expect(command.body.answer).toEqual({ kind: 'toast', text: 'Sunny in Paris, from the laptop' });
  // Asynchronous: Bob's uninstall goes out from the outbox, through the same connection.
  await bob.call('apps.uninstall', { appId: app.id });
  await laptop.waitForVerified(3);
  expect(laptop.verified.map(({ event }) => event.name)).toEqual(['app.install', 'client.slashCommand', 'app.uninstall']);

  for (const name of ['app.install', 'client.slashCommand', 'app.uninstall']) await listen.printed(new RegExp(`^${name.replace('.', '\\.')}\\s+200\\s+delivered\\s+\\d+ ms$`));
  expect(sdkApp.received).toEqual([]);
  // The worker records the uninstall's attempt after the laptop has answered it.
  await t.server.ctx.events.idle();
  const delivered = await t.server.ctx.db.selectFrom('events').select(['name', 'status']).where('app_id', '=', app.id).orderBy('id').execute();
  expect(delivered).toEqual([
    { name: 'app.install', status: 'delivered' },
    { name: 'client.slashCommand', status: 'delivered' },
    { name: 'app.uninstall', status: 'delivered' },
  ]);

  // Ctrl-C: the connection closes, and the listener URL takes the app's events again.
  expect(await listen.stop()).toBe(0);
  child = undefined;
  await serverLog.waitFor((line) => line.msg === 'a listen connection closed' && line.appId === app.id);
  expect(t.server.ctx.events.tunnels.has(app.id)).toBe(false);
  sdkApp.answer = () => ({ text: 'from the listener URL' });
  const again = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather Oslo' });
  expect(again.body.answer).toEqual({ kind: 'toast', text: 'from the listener URL' });
  expect(laptop.received).toHaveLength(3);
});

/** `waiting`, or a failure saying `why` when it has not come within `ms`: the command's output tells what went wrong. */
async function within<T>(ms: number, waiting: Promise<T>, why: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why())), ms)));
  return Promise.race([waiting, late]).finally(() => clearTimeout(timer));
}
