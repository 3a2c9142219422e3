/**
 * The app layer against a real Aviary (SQLite) on loopback: a person installs the app through the client
 * API, the token lands in a file-backed installation store, and a slash command's handler calls the API
 * as that person through ctx.client; the bot answers messages; uninstalling removes the token.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFor, type SignedIn } from '../../server/test/client/harness.js';
import { startTestServer, stopTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { createApp, fileInstallationStore, toUserId, type AviaryApp, type EventOf } from '../src/index.js';

/** A promise and its resolver: a handler resolves it, the test waits on it. */
function signal<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

let t: TestServer;
let listenerServer: Server;
let storeDir: string;
let app: AviaryApp;
let alice: SignedIn;
let appId: string;
let botUserId: string;
const received = {
  message: signal<{ event: EventOf<'chat.receiveMessage'>; replied: string }>(),
  uninstalled: signal<EventOf<'app.uninstall'>>(),
};

beforeAll(async () => {
  t = await startTestServer('sqlite');
  storeDir = await mkdtemp(join(tmpdir(), 'aviary-app-'));
  // The app needs the listener's URL and the listener needs the app's secret: listen first, route later.
  let route: RequestListener = (_req, res) => res.writeHead(503).end();
  listenerServer = createServer((req, res) => route(req, res));
  await new Promise<void>((resolve) => listenerServer.listen(0, '127.0.0.1', resolve));
  const listenerUrl = `http://127.0.0.1:${(listenerServer.address() as AddressInfo).port}/`;

  const team = await t.f.team();
  const person = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const row = await t.f.app(team.id, person.id, {
    listenerUrl,
    integrations: { slashCommands: [{ name: 'weather', action: { type: 'sendEvent' } }, { name: 'other', action: { type: 'sendEvent' } }], previewDomains: [] },
  });
  appId = row.id;
  const bot = await t.f.bot(row.id);
  botUserId = bot.botUserId;
  alice = await sessionFor(t, person);

  app = createApp({
    appId: row.id,
    appSecret: row.secret,
    baseUrl: t.url,
    botToken: bot.botToken,
    installationStore: fileInstallationStore(join(storeDir, 'installations.json')),
    logger: { warn: () => undefined },
  });
  app.command('weather', async (event, ctx) => {
    const { uid } = await ctx.client.chat.sendMessage({ to: event.chat, text: `Weather asked for ${event.text}` });
    return { text: `Sunny in ${event.text} (${uid.length})` };
  });
  app.command(/^oth/, () => ({ text: 'matched by a pattern' }));
  app.message(/hello/, async (event, ctx) => {
    const replied = `You said: ${event.message.text}`;
    await ctx.bot!.chat.sendMessage({ to: event.userId, text: replied });
    received.message.resolve({ event, replied });
  });
  app.uninstalled((event) => received.uninstalled.resolve(event));
  route = app.listener.node;
});

afterAll(async () => {
  await new Promise((resolve) => listenerServer?.close(resolve));
  if (t) await stopTestServer(t);
  if (storeDir) await rm(storeDir, { recursive: true, force: true });
});

describe('createApp against a real Aviary', () => {
  it('keeps the install token in the file store (0600), and acts as that person in a command', async () => {
    expect((await alice.call('apps.install', { appId })).body).toEqual({ installed: true });
    const installation = await app.installationStore.find(toUserId(alice.user.id));
    expect(installation).toMatchObject({ userId: alice.user.id, token: expect.any(String) });
    expect((await stat(join(storeDir, 'installations.json'))).mode & 0o777).toBe(0o600);

    const answer = await alice.call('chat.sendFromComposer', { to: botUserId, text: '/weather Paris' });
    expect(answer.body.answer).toEqual({ kind: 'toast', text: 'Sunny in Paris (26)' });
    const [sent] = await t.client(installation!.token).chat.fetchMessages({ chat: botUserId, limit: 1 });
    expect(sent).toMatchObject({ from: alice.user.id, text: 'Weather asked for Paris' });
  });

  it('matches a command by a pattern', async () => {
    expect((await alice.call('chat.sendFromComposer', { to: botUserId, text: '/other x' })).body.answer).toEqual({ kind: 'toast', text: 'matched by a pattern' });
  });

  it('hands a message matching app.message to its handler, whose ctx.bot answers', async () => {
    await alice.call('chat.sendFromComposer', { to: botUserId, text: 'hello bot' });
    const { event, replied } = await received.message.promise;
    expect(event.message.text).toBe('hello bot');
    const [reply] = await t.client((await app.installationStore.find(toUserId(alice.user.id)))!.token).chat.fetchMessages({ chat: botUserId, limit: 1 });
    expect(reply).toMatchObject({ from: botUserId, text: replied });
  });

  it('forgets the token when the person uninstalls', async () => {
    await alice.call('apps.uninstall', { appId });
    expect((await received.uninstalled.promise).userId).toBe(alice.user.id);
    expect(await app.installationStore.find(toUserId(alice.user.id))).toBeUndefined();
  });
});
