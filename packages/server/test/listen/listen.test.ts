import { listenPath } from '@aviary/protocol';
import { afterAll, afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ListenClient, type ForwardedEvent } from '../../src/cli/listenClient.js';
import { createLog } from '../../src/log.js';
import { enqueueMany } from '../events/appAtListener.js';
import { clientCast, closeSdkApps, expectError, sessionFor } from '../client/harness.js';
import { answerWithSdk, gate, startListener, type TestListener } from '../helpers/listener.js';
import { captureLog, printedLines } from '../helpers/logs.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

afterAll(closeSdkApps);

const integrations = { slashCommands: [{ name: 'weather', description: 'The forecast', action: { type: 'sendEvent' } }] };

/** What the servers log: a listen connection's closing is a line once its events have gone back. */
const serverLog = captureLog();

const opened: Array<{ stop(): void }> = [];
const listeners: TestListener[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) client.stop();
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

/** The developer's laptop: an SDK listener at a local URL, and `aviary listen` forwarding the app's events to it. */
async function laptop(t: TestServer, app: { id: string; secret: string }, credential: string) {
  const local = await startListener(answerWithSdk);
  listeners.push(local);
  const printed = printedLines();
  const forwarded: ForwardedEvent[] = [];
  const client = new ListenClient({ appId: app.id, server: t.url, credential, forwardTo: local.url, print: printed.print });
  client.onForwarded = (event) => forwarded.push(event);
  opened.push(client);
  await client.connected;
  return { local, client, lines: printed.lines, printed, forwarded };
}

/** Opens a listen WebSocket by hand: 'open', or the HTTP refusal the upgrade got. */
function tryOpen(t: TestServer, appId: string, authorization?: string): Promise<'open' | { status: number; body: any }> {
  const url = new URL(listenPath(appId), t.url.replace(/^http/, 'ws'));
  const socket = new WebSocket(url, { headers: authorization ? { authorization } : {} });
  return new Promise((resolve, reject) => {
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }));
    });
    socket.on('error', reject);
  });
}

forEachDialect('aviary listen', (t) => {
  it('takes synchronous and asynchronous events instead of the listener URL, and their answers take effect', async () => {
    const { alice, sdkApp, app, channel } = await clientCast(t(), integrations);
    const { local, lines, forwarded } = await laptop(t(), app, alice.sessionToken);
    local.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async () => ({ text: 'Sunny, through listen' }) as never });
    const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather Paris' });
    expect(command.body.answer).toEqual({ kind: 'toast', text: 'Sunny, through listen' });
    const [commandEvent] = await local.waitForVerified(1);
    expect(commandEvent.event).toMatchObject({ name: 'client.slashCommand', command: 'weather', text: 'Paris' });

    await enqueueMany(t().server.ctx.db, app.id, alice.user.id, 2, t().server.ctx.now());
    t().server.ctx.events.wake();
    const verified = await local.waitForVerified(3);
    expect(verified.slice(1).map(({ event }) => event.name)).toEqual(['app.uninstall', 'app.uninstall']);
    await t().server.ctx.events.idle();
    const statuses = await t().server.ctx.db.selectFrom('events').select(['status', 'synchronous']).where('app_id', '=', app.id).execute();
    expect(statuses).toHaveLength(3);
    expect(statuses.every(({ status }) => status === 'delivered')).toBe(true);

    // The URL's listener heard nothing of it, and the terminal shows one line per event.
    expect(sdkApp.received).toEqual([]);
    expect(forwarded.map(({ name, status, verdict }) => `${name} ${status} ${verdict}`)).toEqual(['client.slashCommand 200 delivered', 'app.uninstall 200 delivered', 'app.uninstall 200 delivered']);
    expect(lines.filter((line) => /^app\.uninstall\s+200\s+delivered\s+\d+ ms$/.test(line))).toHaveLength(2);
  });

  it("takes an install: the person's token reaches the local listener, and a refusal there fails the install", async () => {
    const { bob, sdkApp, app } = await clientCast(t(), integrations);
    const { local, lines, printed } = await laptop(t(), app, app.secret);
    const tokens: string[] = [];
    local.verifyAs(app.id, app.secret, { onError: () => undefined, onEvent: async (event) => (event.name === 'app.install' && tokens.push(event.token), undefined) as never });
    expect((await bob.call('apps.install', { appId: app.id })).status).toBe(200);
    expect((await t().call('users.getInfo', { query: { token: tokens[0]! } })).body).toMatchObject({ id: bob.user.id });
    await printed.waitFor(/^app\.install\s+200\s+delivered\s+\d+ ms$/);

    const carol = await sessionFor(t(), await t().f.person(bob.user.team_id));
    local.respond = () => ({ status: 403, body: 'not for you' });
    expect((await carol.call('apps.install', { appId: app.id })).status).not.toBe(200);
    // The platform's verdict, and the reason in the local listener's own first line.
    await printed.waitFor(/^app\.install\s+403\s+failed\s+\d+ ms\s+\(not for you\)$/);
    expect(lines.filter((line) => /^app\.install\s+403/.test(line))).toHaveLength(1);
    expect(sdkApp.received).toEqual([]);
  });

  it("forwards the exact headers and body, so the local listener's verdict is the server's", async () => {
    const { alice, app, channel } = await clientCast(t(), integrations);
    const { local } = await laptop(t(), app, app.secret);
    local.respond = () => ({ status: 500, body: 'broken' });
    const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather' });
    expect(command.body).toMatchObject({ error: expect.any(String) });
    const [received] = await local.waitFor(1);
    const event = await t().server.ctx.db.selectFrom('events').selectAll().where('app_id', '=', app.id).executeTakeFirstOrThrow();
    expect(received.raw.toString()).toBe(JSON.stringify(JSON.parse(received.raw.toString())));
    expect(received.headers['x-service-event-id']).toBe(event.id);
    expect(event).toMatchObject({ status: 'failed', last_reason: 'http_error' });
  });

  it('gives the events back to the listener URL once listen disconnects', async () => {
    const { alice, sdkApp, app, channel } = await clientCast(t(), integrations);
    const { local, client } = await laptop(t(), app, alice.sessionToken);
    client.stop();
    await serverLog.waitFor((line) => line.msg === 'a listen connection closed' && line.appId === app.id);
    expect(t().server.ctx.events.tunnels.has(app.id)).toBe(false);
    sdkApp.answer = () => ({ text: 'from the URL' });
    const command = await alice.call('chat.sendFromComposer', { to: channel.id, text: '/weather' });
    expect(command.body.answer).toEqual({ kind: 'toast', text: 'from the URL' });
    await enqueueMany(t().server.ctx.db, app.id, alice.user.id, 1, t().server.ctx.now());
    t().server.ctx.events.wake();
    await sdkApp.waitFor(2);
    expect(local.received).toEqual([]);
  });

  it("sends at once, through listen, the events that were waiting out the listener URL's backoff", async () => {
    const { alice, sdkApp, app } = await clientCast(t(), integrations);
    sdkApp.answer = () => {
      throw new Error('the URL is broken');
    };
    await enqueueMany(t().server.ctx.db, app.id, alice.user.id, 1, t().server.ctx.now());
    t().server.ctx.events.wake();
    await sdkApp.waitFor(1);
    await t().server.ctx.events.idle();
    const waiting = await t().server.ctx.db.selectFrom('apps').select('listener_retry_at').where('id', '=', app.id).executeTakeFirstOrThrow();
    expect(waiting.listener_retry_at).toBeGreaterThan(t().server.ctx.now());
    const { local } = await laptop(t(), app, app.secret);
    local.verifyAs(app.id, app.secret, { onError: () => undefined });
    const [delivered] = await local.waitForVerified(1);
    expect(delivered.event.name).toBe('app.uninstall');
  });

  it("refuses anyone but the app's developer or a holder of its secret", async () => {
    const { alice, bob, app, team } = await clientCast(t(), integrations);
    const admin = await sessionFor(t(), await t().f.person(team.id, { role: 'admin' }));
    expect(await tryOpen(t(), app.id)).toMatchObject({ status: 401, body: { error: 'NotSignedIn' } });
    expect(await tryOpen(t(), app.id, 'Bearer not-the-secret')).toMatchObject({ status: 401, body: { error: 'NotSignedIn' } });
    expect(await tryOpen(t(), app.id, `Bearer ${bob.sessionToken}`)).toMatchObject({ body: { error: 'UnknownApp' } });
    expect(await tryOpen(t(), app.id, `Bearer ${admin.sessionToken}`)).toMatchObject({ status: 403, body: { error: 'PermissionDenied' } });
    // An app's secret for another app (or a rotated one) is said to be the wrong secret.
    expect(await tryOpen(t(), 'A000000000', `Bearer ${app.secret}`)).toMatchObject({ status: 403, body: { error: 'InvalidToken', description: expect.stringMatching(/not the current secret of an app "A000000000"/) } });
    expect(await tryOpen(t(), app.id, `Bearer ${app.secret}`)).toBe('open');
    expect(await tryOpen(t(), app.id, `Bearer ${alice.sessionToken}`)).toBe('open');
    const refused = new ListenClient({ appId: app.id, server: t().url, credential: 'wrong', forwardTo: 'http://127.0.0.1:9/events', print: () => undefined });
    opened.push(refused);
    await expect(refused.connected).rejects.toThrow(/NotSignedIn/);
  });
}, {}, { log: createLog({ logLevel: 'info' }, serverLog.destination) });

forEachDialect(
  'aviary listen: the platform’s verdict',
  (t) => {
    it('prints a time-out as the failure it is, even when the local listener answers 200 later', async () => {
      const { bob, app } = await clientCast(t(), integrations);
      const { local, printed, forwarded } = await laptop(t(), app, app.secret);
      const held = gate();
      local.respond = () => ({ status: 200, body: '{}', after: held.opened });
      expectError(await bob.call('apps.install', { appId: app.id }), { status: 502, error: 'InstallFailed', description: /did not answer app\.install within 2 s/ });
      held.open();
      const line = await printed.waitFor(/^app\.install\s/);
      expect(line).toMatch(/^app\.install\s+200\s+failed\s+\d+ ms\s+\(no complete answer within 2000 ms\)$/);
      expect(forwarded[0]).toMatchObject({ status: 200, verdict: 'failed' });
    });

    it("prints the SDK's verification message when the local listener refuses the event", async () => {
      const { bob, app } = await clientCast(t(), integrations);
      const { local, printed } = await laptop(t(), app, app.secret);
      local.verifyAs(app.id, 'as_not-the-secret-of-this-app', { onError: () => undefined });
      expect((await bob.call('apps.install', { appId: app.id })).status).not.toBe(200);
      const line = await printed.waitFor(/^app\.install\s/);
      expect(line).toMatch(/^app\.install\s+40[13]\s+failed\s+\d+ ms\s+\(.*(token|signature).*\)$/i);
    });
  },
  // Long enough for a loaded machine to relay a refusal; the time-out test waits it out once.
  { installTimeoutMs: 2000 },
);

it('aviary listen explains a missing credential or a forward URL that is not http(s), and stops on a refused credential', async () => {
  const { runCli } = await import('../cli/cli.js');
  const noCredential = await runCli(['listen', '--app', 'a:x', '--forward-to', 'http://localhost:3000/events'], { AVIARY_TOKEN: '', AVIARY_APP_SECRET: '' });
  expect(noCredential.code).toBe(2);
  expect(noCredential.stderr).toMatch(/--token .* or --secret/);
  const badUrl = await runCli(['listen', '--app', 'a:x', '--forward-to', 'ftp://localhost/events', '--secret', 's']);
  expect(badUrl.code).not.toBe(0);
  expect(badUrl.stderr).toMatch(/"ftp:\/\/localhost\/events" must be an http:\/\/ or https:\/\/ URL/);
});
