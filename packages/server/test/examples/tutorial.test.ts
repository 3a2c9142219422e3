import { afterAll, beforeAll, expect, it } from 'vitest';
import { echoBot } from '../../../../examples/echo-bot/app.js';
import { ListenClient } from '../../src/cli/listenClient.js';
import { repoRoot, runCli, runCliJson } from '../cli/cli.js';
import { sessionFor } from '../client/harness.js';
import { printedLines } from '../helpers/logs.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { exampleServer } from './serveExample.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('sqlite');
});
afterAll(async () => {
  await stopTestServer(t);
});

it('docs/tutorial.md from its first line: the CLI makes the app, listen carries it, the bot echoes, and /echo answers once installed', async () => {
  // 1. A running Aviary with a demo person (the tutorial's Maya).
  const team = await t.f.team();
  const maya = await t.f.person(team.id, { firstName: 'Maya', lastName: 'Okafor' });
  const store = ['--data', t.testStore.dataDir];
  // 2. The app and its bot, from the CLI, with no listener URL.
  const app = await runCliJson<{ id: string; secret: string }>(['app', 'create', '--name', 'Echo', '--developer', maya.id, ...store, '--json']);
  const bot = await runCliJson<{ botUserId: string; botToken: string }>(['app', 'bot', '--app', app.id, '--enable', ...store, '--json']);
  // 3. The app, served locally.
  const local = await exampleServer();
  local.serve(echoBot({ appId: app.id, appSecret: app.secret, botToken: bot.botToken, baseUrl: t.url }));
  const signedIn = await sessionFor(t, maya);
  const echoInDirectory = async () => (await signedIn.call('apps.listDirectory')).body.apps.find((listed: { id: string }) => listed.id === app.id);
  // Before listening the directory says why it cannot be installed.
  expect(await echoInDirectory()).toMatchObject({ installable: false, notInstallableBecause: expect.stringMatching(/no event listener URL and no open `aviary listen`/) });
  // 4. aviary listen, forwarding to it.
  const lines = printedLines();
  const listen = new ListenClient({ appId: app.id, server: t.url, credential: app.secret, forwardTo: local.url, print: lines.print });
  try {
    await listen.connected;
    // 5. Hello.
    await signedIn.call('chat.sendFromComposer', { to: bot.botUserId, text: 'hello' });
    await t.server.ctx.events.idle();
    const texts = (await signedIn.call('chat.fetchMessages', { chat: bot.botUserId })).body.map((m: { text: string }) => m.text);
    expect(texts).toEqual(['hello', 'hello']);
    await lines.waitFor(/^chat\.receiveMessage\s+200\s+delivered\s+\d+ ms$/);
    // 6. Next: slash commands. The command from the example's file, the install from the directory, then /echo.
    const integrations = await runCli(['app', 'integrations', '--app', app.id, '--file', `${repoRoot}examples/echo-bot/integrations.json`, ...store]);
    expect(integrations.code, integrations.stderr).toBe(0);
    const listed = await echoInDirectory();
    expect(listed).toMatchObject({ installable: true, installed: false });
    expect(listed.notInstallableBecause).toBeUndefined();
    expect((await signedIn.call('apps.install', { appId: app.id })).status).toBe(200);
    const answered = await signedIn.call('chat.sendFromComposer', { to: bot.botUserId, text: '/echo hi there' });
    expect(answered.body).toEqual({ slashCommand: { appId: app.id, command: 'echo' }, answer: { kind: 'toast', text: 'hi there' } });
    await lines.waitFor(/^client\.slashCommand\s+200\s+delivered\s+\d+ ms$/);
  } finally {
    listen.stop();
  }
});
