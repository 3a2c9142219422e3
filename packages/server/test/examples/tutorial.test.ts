import { afterAll, beforeAll, expect, it } from 'vitest';
import { echoBot } from '../../../../examples/echo-bot/app.js';
import { ListenClient } from '../../src/cli/listenClient.js';
import { runCliJson } from '../cli/cli.js';
import { sessionFor } from '../client/harness.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';
import { exampleServer } from './serveExample.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('sqlite');
});
afterAll(async () => {
  await stopTestServer(t);
});

it('docs/tutorial.md: create the app with the CLI, listen, and the bot echoes a direct message', async () => {
  // 1. A running Aviary with a person (the demo's Ada).
  const team = await t.f.team();
  const ada = await t.f.person(team.id, { firstName: 'Ada', lastName: 'Lovelace' });
  const store = ['--data', t.testStore.dataDir];
  // 2. The app and its bot, from the CLI, with no listener URL.
  const app = await runCliJson<{ id: string; secret: string }>(['app', 'create', '--name', 'Echo', '--developer', ada.id, ...store, '--json']);
  const bot = await runCliJson<{ botUserId: string; botToken: string }>(['app', 'bot', '--app', app.id, '--enable', ...store, '--json']);
  // 3. The app, served locally.
  const local = await exampleServer();
  local.serve(echoBot({ appId: app.id, appSecret: app.secret, botToken: bot.botToken, baseUrl: t.url }));
  // 4. aviary listen, forwarding to it.
  const lines: string[] = [];
  const listen = new ListenClient({ appId: app.id, server: t.url, credential: app.secret, forwardTo: local.url, print: (line) => lines.push(line) });
  try {
    await listen.connected;
    // 5. Hello.
    const signedIn = await sessionFor(t, ada);
    await signedIn.post('/messages', { to: bot.botUserId, text: 'hello' });
    await t.server.ctx.events.idle();
    const texts = (await signedIn.get('/messages', { chat: bot.botUserId })).body.messages.map((m: { text: string; from?: string }) => m.text);
    expect(texts).toEqual(['hello', 'hello']);
    expect(lines.some((line) => /^chat\.receiveMessage\s+200\s+\d+ ms$/.test(line))).toBe(true);
  } finally {
    listen.stop();
  }
});
