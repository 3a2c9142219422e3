/**
 * Socket Mode against a real Aviary (SQLite) on loopback: an app with no listener URL at all opens the
 * listen WebSocket with its secret, is installed, answers a slash command and gets a message; the server
 * restarts on the same store and port, and the app, having backed off and reconnected on its own,
 * answers again. A wrong secret is refused for good.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessionFor } from '../../server/test/client/harness.js';
import { restartOnSameStore, startTestServer, stopTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { createApp, socketModeReceiver, toUserId, type SocketModeReceiver, type SocketModeState } from '../src/index.js';

let t: TestServer;
const receivers: SocketModeReceiver[] = [];
const quiet = { info: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await startTestServer('sqlite');
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.stop()));
  if (t) await stopTestServer(t);
});

/** Resolves at the receiver's next change to `state`. */
function next(receiver: SocketModeReceiver, state: SocketModeState, seen: SocketModeState[]): Promise<void> {
  return new Promise((resolve) => {
    receiver.onStateChange = (changed) => {
      seen.push(changed);
      if (changed === state) resolve();
    };
  });
}

it('carries events with no public URL, and after a server restart reconnects with backoff and carries them again', { timeout: 60_000 }, async () => {
  const team = await t.f.team();
  const person = await t.f.person(team.id, { firstName: 'Maya', lastName: 'Okafor' });
  const row = await t.f.app(team.id, person.id, { integrations: { slashCommands: [{ name: 'ping', action: { type: 'sendEvent' } }], previewDomains: [] } });
  const bot = await t.f.bot(row.id);
  const messages: string[] = [];
  const app = createApp({ appId: row.id, appSecret: row.secret, baseUrl: t.url, botToken: bot.botToken, logger: quiet });
  app.command('ping', (event) => ({ text: `pong ${event.text}` }));
  app.message((event) => void messages.push(event.message.text));
  const receiver = app.socketMode({ minReconnectDelayMs: 20, maxReconnectDelayMs: 200, logger: quiet });
  receivers.push(receiver);
  await receiver.start();
  expect(receiver.state).toBe('open');

  const maya = await sessionFor(t, person);
  expect((await maya.call('apps.install', { appId: row.id })).body).toEqual({ installed: true });
  expect((await maya.call('chat.sendFromComposer', { to: person.id, text: '/ping one' })).body.answer).toEqual({ kind: 'toast', text: 'pong one' });
  expect(await app.installationStore.find(toUserId(person.id))).toMatchObject({ token: expect.any(String) });

  // The server goes away: the connection drops, and the receiver keeps trying, backing off.
  const states: SocketModeState[] = [];
  const reopened = next(receiver, 'open', states);
  const port = Number(new URL(t.url).port);
  await t.server.close();
  t = await restartOnSameStore(t, { port });
  await reopened;
  expect(states[0]).toBe('waiting');
  expect(states.at(-1)).toBe('open');

  const again = await sessionFor(t, person);
  expect((await again.call('chat.sendFromComposer', { to: person.id, text: '/ping two' })).body.answer).toEqual({ kind: 'toast', text: 'pong two' });
  await again.call('chat.sendFromComposer', { to: bot.botUserId, text: 'after the restart' });
  await t.server.ctx.events.idle();
  expect(messages).toEqual(['after the restart']);

  await receiver.stop();
  expect(receiver.state).toBe('stopped');
});

it('is refused for good with a wrong secret, and needs its options', async () => {
  const team = await t.f.team();
  const row = await t.f.app(team.id, (await t.f.person(team.id)).id);
  const app = createApp({ appId: row.id, appSecret: 'as_not-this-apps-secret', baseUrl: t.url, logger: quiet });
  const receiver = app.socketMode({ logger: quiet });
  receivers.push(receiver);
  await expect(receiver.start()).rejects.toThrow(/HTTP 401.*NotSignedIn/);
  expect(receiver.state).toBe('stopped');
  expect(() => socketModeReceiver(app.listener, { baseUrl: '', appId: row.id, appSecret: row.secret })).toThrow(/needs baseUrl/);
  expect(() => createApp({ appId: row.id, appSecret: row.secret }).socketMode()).toThrow(/needs baseUrl/);
});
