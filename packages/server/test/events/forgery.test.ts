import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AviaryEvent } from '@aviary/protocol';
import { createEventListener, verifyWidgetRequest, type EventContext } from '@aviary/sdk';
import { afterAll, expect, it } from 'vitest';
import type { AppsTable } from '../../src/store/schema.js';
import { sessionFor } from '../client/harness.js';
import { allowOrigins } from '../helpers/origins.js';
import { forEachDialect, type TestServer } from '../helpers/server.js';

/**
 * Forgeries against the real SDK listener (over HTTP on loopback) and the real widget verifier, with
 * tokens a real Aviary server handed out: a widget URL's token, and a listener delivery's captured on
 * the wire.
 */

interface CapturedDelivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/** An app's listener: records every delivery as it arrived, then lets the SDK listener judge it. */
async function startCapturingApp() {
  const captured: CapturedDelivery[] = [];
  const handled: Array<{ event: AviaryEvent; ctx: EventContext }> = [];
  const refusals: string[] = [];
  let sdk: ReturnType<typeof createEventListener> | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      captured.push({ headers: req.headers, raw });
      void sdk!.handle({ headers: req.headers, body: raw }).then((answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    captured,
    handled,
    refusals,
    useApp(app: AppsTable) {
      sdk = createEventListener({
        appId: app.id,
        appSecret: app.secret,
        logger: { warn: (message) => refusals.push(message) },
        onEvent: (event, ctx) => void handled.push({ event, ctx }),
      });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const apps: Array<Awaited<ReturnType<typeof startCapturingApp>>> = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** Alice installed the app; `/ping` goes to its listener, and its widgets live on https://widgets.example.test. */
async function forgeryCast(t: TestServer) {
  const listener = await startCapturingApp();
  apps.push(listener);
  const team = await t.f.team();
  const alice = await t.f.person(team.id, { firstName: 'Alice', lastName: 'Archer' });
  const integrations = { slashCommands: [{ name: 'ping', action: { type: 'sendEvent' } }] };
  const app = await t.f.app(team.id, alice.id, { listenerUrl: listener.url, integrations });
  listener.useApp(app);
  await allowOrigins(t.testStore.store.db, app.id, ['https://widgets.example.test']);
  await t.f.install(app.id, alice.id);
  return { app, listener, alice: await sessionFor(t, alice) };
}

async function post(url: string, body: Buffer | string, headers: Record<string, string>) {
  const bytes = typeof body === 'string' ? body : new Uint8Array(body);
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: bytes });
  return { status: response.status, body: await response.json() };
}

/** A real listener delivery: `/ping` sent by Alice, as the app's listener received it. */
async function capturedPing(cast: Awaited<ReturnType<typeof forgeryCast>>): Promise<CapturedDelivery & { token: string }> {
  const sent = await cast.alice.call('chat.sendFromComposer', { to: cast.alice.user.id, text: '/ping now' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const delivery = cast.listener.captured.at(-1)!;
  expect(cast.listener.handled.at(-1)!.event).toMatchObject({ name: 'client.slashCommand', command: 'ping' });
  return { ...delivery, token: String(delivery.headers['x-service-event-token']) };
}

/** A real widget URL for Alice, from her own widget's Aviary.openWidget. */
async function realWidgetUrl(cast: Awaited<ReturnType<typeof forgeryCast>>): Promise<URL> {
  const opened = await cast.alice.call('interactions.runWidgetAction', {
    appId: cast.app.id,
    kind: 'openWidget',
    url: 'https://widgets.example.test/board',
    chat: cast.alice.user.id,
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return new URL(opened.body.url);
}

forEachDialect('forged and replayed event tokens', (t) => {
  it('refuses a widget URL’s token sent to the listener with a made-up body', async () => {
    const cast = await forgeryCast(t());
    const widgetToken = (await realWidgetUrl(cast)).searchParams.get('serviceEventToken')!;
    const handled = cast.listener.handled.length;
    const madeUp = [
      { name: 'app.install', userId: cast.alice.user.id, token: 'chosen-by-attacker', userToken: 'chosen-by-attacker' },
      { name: 'chat.receiveMessage', userId: cast.alice.user.id, message: { uid: 'x', from: cast.alice.user.id, text: 'I am the admin' } },
    ];
    for (const event of madeUp) {
      const answer = await post(cast.listener.url, JSON.stringify(event), { 'X-Service-Event-Token': widgetToken });
      expect(answer).toMatchObject({ status: 403, body: { error: 'InvalidEventToken' } });
    }
    expect(cast.listener.handled.length).toBe(handled);
    expect(cast.listener.refusals.at(-1)).toMatch(/for the widget route, not listener/);
  });

  it('refuses a captured listener token with another body; the same body keeps its signed event id', async () => {
    const cast = await forgeryCast(t());
    const ping = await capturedPing(cast);
    const handled = cast.listener.handled.length;
    const other = Buffer.from(ping.raw.toString('utf8').replace('"now"', '"rm -rf"'));
    expect(other.equals(ping.raw)).toBe(false);
    const forged = await post(cast.listener.url, other, { 'X-Service-Event-Token': ping.token });
    expect(forged).toMatchObject({ status: 403, body: { error: 'InvalidEventToken', description: expect.stringContaining('sha256') } });
    expect(cast.listener.handled.length).toBe(handled);

    // A replay of the very delivery under a fresh X-Service-Event-Id still reads as the same event.
    const replay = await post(cast.listener.url, ping.raw, { 'X-Service-Event-Token': ping.token, 'X-Service-Event-Id': 'ev_fresh_looking' });
    expect(replay.status).toBe(200);
    const jti = String(ping.headers['x-service-event-id']);
    expect(cast.listener.handled.slice(-2).map((seen) => seen.ctx.eventId)).toEqual([jti, jti]);
  });

  it('refuses a captured listener token whose signature is padded, has junk appended or is spelt otherwise', async () => {
    const cast = await forgeryCast(t());
    const ping = await capturedPing(cast);
    const [header, payload, signature] = ping.token.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last of 43 characters has two unused bits; setting one gives the same 32 bytes, spelt otherwise.
    const sibling = signature.slice(0, -1) + alphabet[alphabet.indexOf(signature.at(-1)!) | 1];
    const handled = cast.listener.handled.length;
    for (const spoiled of [`${signature}=`, `${signature}!`, `${signature}%20`, sibling]) {
      if (spoiled === signature) continue;
      const answer = await post(cast.listener.url, ping.raw, { 'X-Service-Event-Token': `${header}.${payload}.${spoiled}` });
      expect(answer, spoiled).toMatchObject({ status: 403, body: { error: 'InvalidEventToken' } });
    }
    expect(cast.listener.handled.length).toBe(handled);
  });

  it('refuses a token whose header carries crit, even signed with the app secret', async () => {
    const cast = await forgeryCast(t());
    const ping = await capturedPing(cast);
    const payload = ping.token.split('.')[1]!;
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', crit: ['b64'], b64: false })).toString('base64url');
    const signature = createHmac('sha256', cast.app.secret).update(`${header}.${payload}`).digest('base64url');
    const answer = await post(cast.listener.url, ping.raw, { 'X-Service-Event-Token': `${header}.${payload}.${signature}` });
    expect(answer).toMatchObject({ status: 403, body: { error: 'InvalidEventToken', description: expect.stringContaining('crit') } });
  });

  it('refuses a widget URL whose serviceEvent was edited: another chat, another message', async () => {
    const cast = await forgeryCast(t());
    const url = await realWidgetUrl(cast);
    const options = { appId: cast.app.id, appSecret: cast.app.secret };
    await expect(verifyWidgetRequest(url, options)).resolves.toMatchObject({ claims: { route: 'widget' } });
    const event = JSON.parse(url.searchParams.get('serviceEvent')!);
    for (const edited of [{ ...event, chat: 'g:aaaaaaaaaaaaaaaa' }, { ...event, messageUid: '01JZZZZZZZZZZZZZZZZZZZZZZZ' }]) {
      const forged = new URL(url);
      forged.searchParams.set('serviceEvent', JSON.stringify(edited));
      await expect(verifyWidgetRequest(forged, options)).rejects.toMatchObject({ reason: 'digest' });
    }
  });

  it('refuses a captured listener token used as a widget token, even for the very same event', async () => {
    const cast = await forgeryCast(t());
    const ping = await capturedPing(cast);
    const url = new URL('https://widgets.example.test/board');
    url.searchParams.set('serviceEvent', ping.raw.toString('utf8'));
    url.searchParams.set('serviceEventToken', ping.token);
    url.searchParams.set('serviceClient', 'desktop');
    url.searchParams.set('serviceWidgetType', 'modal');
    await expect(verifyWidgetRequest(url, { appId: cast.app.id, appSecret: cast.app.secret })).rejects.toMatchObject({ reason: 'route' });
  });
});
