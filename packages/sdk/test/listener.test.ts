import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createEventListener,
  NoRetryError,
  type AviaryEvent,
  type EventContext,
  type EventName,
  type EventOf,
  type EventTokenClaims,
} from '../src/index.js';
import { appId, appSecret, makeEvent, otherUserId, signEventToken, userId } from './helpers/events.js';

interface Received {
  event: AviaryEvent;
  ctx: EventContext;
}

/** One listener app per server, so that each records only its own deliveries. */
function listenerApp() {
  const received: Received[] = [];
  const failures: unknown[] = [];
  const warnings: string[] = [];
  const listener = createEventListener({
    appId,
    appSecret,
    onError: (error) => failures.push(error),
    logger: { warn: (message) => warnings.push(message) },
    on: {
      'app.install': (event, ctx) => {
        received.push({ event, ctx });
      },
      'chat.receiveMessage': async (event, ctx) => {
        expectTypeOf(event).toEqualTypeOf<EventOf<'chat.receiveMessage'>>();
        received.push({ event, ctx });
      },
      'chat.generateUrlPreview': async (event) => ({
        title: `Preview of ${event.url}`,
        views: { widget: { src: 'https://app.example.com/preview', width: 400, height: 200 } },
      }),
      'client.pressButton': async (event, ctx) => {
        expectTypeOf(event).toEqualTypeOf<EventOf<'client.pressButton'>>();
        received.push({ event, ctx });
        return event.button === 'attachmentButton' ? { text: `pressed ${event.buttonId}` } : undefined;
      },
      'client.slashCommand': async (event) => {
        if (event.text === 'crash') throw new Error('database is down');
        if (event.text === 'refuse') throw new NoRetryError('this command is retired');
        return { text: `ran /${event.command} ${event.text}` };
      },
    },
  });
  return { listener, received, failures, warnings };
}

interface Target {
  url: string;
  app: ReturnType<typeof listenerApp>;
  close(): Promise<void>;
}

async function listenNode(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeNode(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const servers: Record<string, () => Promise<Target>> = {
  'node:http': async () => {
    const app = listenerApp();
    const server = http.createServer(app.listener.node);
    return { url: `${await listenNode(server)}/events`, app, close: () => closeNode(server) };
  },
  fastify: async () => {
    const app = listenerApp();
    const fastify = Fastify();
    fastify.get('/health', async () => ({ ok: true }));
    fastify.post('/echo', async (request) => request.body);
    await fastify.register(app.listener.fastify, { path: '/events' });
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${base}/events`, app, close: () => fastify.close() };
  },
  express: async () => {
    const app = listenerApp();
    const expressApp = express();
    expressApp.post('/events', app.listener.express);
    const server = http.createServer(expressApp);
    return { url: `${await listenNode(server)}/events`, app, close: () => closeNode(server) };
  },
};

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** 200 with exactly `{}`. */
const acknowledged = { status: 200, headers: expect.any(Headers), body: {} };

/** Posts the event the way the service does: its JSON, with a listener token for exactly those bytes. */
async function deliver(url: string, event: { name: string; userId: string }, headers: Record<string, string> = {}) {
  const body = JSON.stringify(event);
  const token = await signEventToken({ userId: event.userId }, { content: body });
  return post(url, body, { 'X-Service-Event-Token': token, ...headers });
}

describe.each(Object.keys(servers))('the event listener on %s', (kind) => {
  let target: Target;
  beforeAll(async () => {
    target = await servers[kind]!();
  });
  afterAll(() => target.close());

  it('dispatches an event to its handler with the verified claims and delivery headers', async () => {
    const event = makeEvent('chat.receiveMessage');
    const token = await signEventToken({ jti: 'evt-dispatch' }, { content: JSON.stringify(event) });
    const answer = await post(target.url, event, {
      'X-Service-Event-Token': token,
      'X-Service-Event-Id': 'evt-dispatch',
      'X-Service-Retry-Num': '2',
      'X-Service-Retry-Reason': 'timeout',
    });
    expect(answer).toEqual(acknowledged);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const received = target.app.received.at(-1)!;
    expect(received.event).toEqual(event);
    expect(received.ctx).toEqual({
      claims: expect.objectContaining<Partial<EventTokenClaims>>({ appId, userId, jti: 'evt-dispatch' }),
      eventId: 'evt-dispatch',
      retryNum: 2,
      retryReason: 'timeout',
    });
  });

  it('takes the event id from the token when the header is absent', async () => {
    const event = makeEvent('app.install');
    const answer = await post(target.url, event, { 'X-Service-Event-Token': await signEventToken({ jti: 'evt-from-jti' }, { content: JSON.stringify(event) }) });
    expect(answer.status).toBe(200);
    expect(target.app.received.at(-1)!.ctx).toMatchObject({ eventId: 'evt-from-jti', retryNum: 0, retryReason: undefined });
  });

  it('refuses a missing, forged or mismatched token with 403 InvalidEventToken', async () => {
    const event = makeEvent('chat.receiveMessage');
    const content = JSON.stringify(event);
    const count = target.app.received.length;
    const missing = await post(target.url, event);
    const forged = await post(target.url, event, { 'X-Service-Event-Token': await signEventToken({}, { secret: 'guessed', content }) });
    const otherUser = await post(target.url, event, { 'X-Service-Event-Token': await signEventToken({ userId: otherUserId }, { content }) });
    const otherApp = await post(target.url, event, { 'X-Service-Event-Token': await signEventToken({ appId: 'a:otherapp00000001' }, { content }) });
    for (const answer of [missing, forged, otherUser, otherApp]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'InvalidEventToken', description: expect.any(String) });
    }
    expect(otherUser.body.description).toContain(otherUserId);
    expect(target.app.received.length).toBe(count);
  });

  it('refuses a widget or browser token, even one signed for the very body sent', async () => {
    const count = target.app.received.length;
    // A made-up install, carrying a user token of the sender's choice, under a token a widget URL carried.
    const forged = JSON.stringify(makeEvent('app.install', { token: 'attacker-token', userToken: 'attacker-token' }));
    for (const route of ['widget', 'browser']) {
      const fromWidget = await signEventToken({ route }, { content: JSON.stringify(makeEvent('client.widgetAction')) });
      const forMadeUpBody = await signEventToken({ route }, { content: forged });
      for (const token of [fromWidget, forMadeUpBody]) {
        const answer = await post(target.url, forged, { 'X-Service-Event-Token': token });
        expect(answer).toMatchObject({ status: 403, body: { error: 'InvalidEventToken', description: expect.stringContaining(`for the ${route} route`) } });
      }
    }
    expect(target.app.received.length).toBe(count);
  });

  it('refuses a listener token with a body other than the one it was signed for', async () => {
    const count = target.app.received.length;
    const signed = JSON.stringify(makeEvent('chat.receiveMessage'));
    const token = await signEventToken({}, { content: signed });
    const changed = signed.replace('hello bot', 'transfer the funds');
    const reordered = JSON.stringify(JSON.parse(signed), null, 1);
    for (const body of [changed, reordered]) {
      const answer = await post(target.url, body, { 'X-Service-Event-Token': token });
      expect(answer).toMatchObject({ status: 403, body: { error: 'InvalidEventToken', description: expect.stringContaining('sha256') } });
    }
    expect(target.app.received.length).toBe(count);
    expect(target.app.warnings.at(-1)).toMatch(/^aviary: refused an event delivery \(403 InvalidEventToken\): .*sha256.*\(digest\)$/);
  });

  it('gives the handler the signed jti as the event id, whatever X-Service-Event-Id says', async () => {
    const body = JSON.stringify(makeEvent('app.install'));
    const token = await signEventToken({ jti: 'evt-signed' }, { content: body });
    expect((await post(target.url, body, { 'X-Service-Event-Token': token, 'X-Service-Event-Id': 'evt-already-seen' })).status).toBe(200);
    expect(target.app.received.at(-1)!.ctx.eventId).toBe('evt-signed');
  });

  it('logs a wrong secret so that it is obvious', async () => {
    const body = JSON.stringify(makeEvent('app.uninstall'));
    const answer = await post(target.url, body, { 'X-Service-Event-Token': await signEventToken({}, { secret: 'an-old-secret', content: body }) });
    expect(answer.status).toBe(403);
    expect(target.app.warnings.at(-1)).toContain(`signature does not match: is appSecret the secret of app ${appId}?`);
  });

  it('answers 400 to a body that is not a JSON event', async () => {
    for (const body of ['{"name": "chat.receiveMessage",', '', '[1,2]', '{"name":"app.install"}']) {
      const answer = await post(target.url, body, { 'X-Service-Event-Token': await signEventToken({}, { content: body }) });
      expect(answer.status, body).toBe(400);
      expect(answer.body).toEqual({ error: 'InvalidRequestData', description: expect.any(String) });
    }
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const event = { ...makeEvent('app.uninstall'), padding: 'x'.repeat(1024 * 1024) };
    const answer = await deliver(target.url, event);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe('RequestTooLarge');
  });

  it('answers a URL preview with {attachment}', async () => {
    const event = makeEvent('chat.generateUrlPreview');
    const answer = await deliver(target.url, event);
    expect(answer).toMatchObject({
      status: 200,
      body: {
        attachment: {
          title: `Preview of ${event.url}`,
          views: { widget: { src: 'https://app.example.com/preview', width: 400, height: 200 } },
        },
      },
    });
  });

  it('answers a client event with the toast its handler returns, or {} without one', async () => {
    const withToast = await deliver(target.url, makeEvent('client.slashCommand'));
    expect(withToast).toMatchObject({ status: 200, body: { text: 'ran /deploy production' } });
    const launcher = makeEvent('client.pressButton', { button: 'appLauncherButton' });
    const withoutToast = await deliver(target.url, launcher);
    expect(withoutToast).toEqual(acknowledged);
    expect(target.app.received.at(-1)!.event).toEqual(launcher);
  });

  it('answers 500 when a handler throws, so that the service retries, without leaking the error', async () => {
    const answer = await deliver(target.url, makeEvent('client.slashCommand', { text: 'crash' }));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('x-service-no-retry')).toBeNull();
    expect(answer.body).toEqual({ error: 'InternalServerError', description: 'the app failed to handle client.slashCommand' });
    expect(target.app.failures.at(-1)).toMatchObject({ message: 'database is down' });
  });

  it('answers 500 with X-Service-No-Retry: 1 when a handler throws NoRetryError', async () => {
    const answer = await deliver(target.url, makeEvent('client.slashCommand', { text: 'refuse' }));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('x-service-no-retry')).toBe('1');
    expect(target.app.failures.at(-1)).toBeInstanceOf(NoRetryError);
  });

  it('acknowledges with 200 {} an event without a handler, or with a name it does not know', async () => {
    expect(await deliver(target.url, makeEvent('app.uninstall'))).toEqual(acknowledged);
    expect(await deliver(target.url, { name: 'chat.somethingNew', userId })).toEqual(acknowledged);
  });
});

describe('the event listener adapters', () => {
  it('node: answers 405 to anything but POST', async () => {
    const server = http.createServer(listenerApp().listener.node);
    const url = await listenNode(server);
    try {
      const response = await fetch(url);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    } finally {
      await closeNode(server);
    }
  });

  it('fastify: keeps its body parsing to the plugin and serves the default path /', async () => {
    const fastify = Fastify();
    fastify.post('/echo', async (request) => request.body);
    await fastify.register(listenerApp().listener.fastify);
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      expect(await post(`${base}/echo`, { hello: 'world' })).toMatchObject({ status: 200, body: { hello: 'world' } });
      expect(await post(`${base}/echo`, '{oops')).toMatchObject({ status: 400, body: { code: 'FST_ERR_CTP_INVALID_JSON_BODY' } });
      expect(await deliver(`${base}/`, makeEvent('app.uninstall'))).toEqual(acknowledged);
    } finally {
      await fastify.close();
    }
  });

  it('express: after express.json(), uses the raw bytes it kept as req.rawBody, and passes other verbs on', async () => {
    const app = listenerApp();
    const expressApp = express();
    expressApp.use(express.json({ verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf) }));
    expressApp.use('/events', app.listener.express);
    expressApp.get('/events', (_req, res) => void res.json({ page: 'settings' }));
    const server = http.createServer(expressApp);
    const url = `${await listenNode(server)}/events`;
    try {
      const event = makeEvent('client.pressButton');
      expect(await deliver(url, event)).toMatchObject({ status: 200, body: { text: 'pressed approve' } });
      expect(app.received.at(-1)!.event).toEqual(event);
      expect(await (await fetch(url)).json()).toEqual({ page: 'settings' });
    } finally {
      await closeNode(server);
    }
  });

  it('express: after a plain express.json(), refuses with 500 and says how to keep the raw bytes', async () => {
    const app = listenerApp();
    const expressApp = express();
    expressApp.use(express.json());
    expressApp.post('/events', app.listener.express);
    const server = http.createServer(expressApp);
    const url = `${await listenNode(server)}/events`;
    try {
      const answer = await deliver(url, makeEvent('client.pressButton'));
      expect(answer).toMatchObject({ status: 500, body: { error: 'InternalServerError', description: expect.stringContaining('raw bytes') } });
      expect(app.received).toEqual([]);
      expect(app.warnings.at(-1)).toMatch(/mount the listener before express\.json\(\)/);
    } finally {
      await closeNode(server);
    }
  });

  it('hands events without a handler in `on` to onEvent, answering by the event name', async () => {
    const seen: EventName[] = [];
    const listener = createEventListener({
      appId,
      appSecret,
      on: { 'app.install': () => undefined },
      onEvent: async (event) => {
        seen.push(event.name);
        if (event.name === 'chat.generateUrlPreview') return { title: 'generic preview' };
        return undefined;
      },
    });
    const server = http.createServer(listener.node);
    const url = await listenNode(server);
    try {
      expect(await deliver(url, makeEvent('app.install'))).toEqual(acknowledged);
      expect(await deliver(url, makeEvent('chat.generateUrlPreview'))).toMatchObject({
        status: 200,
        body: { attachment: { title: 'generic preview' } },
      });
      expect(await deliver(url, makeEvent('client.widgetAction'))).toEqual(acknowledged);
      expect(seen).toEqual(['chat.generateUrlPreview', 'client.widgetAction']);
    } finally {
      await closeNode(server);
    }
  });

  it('passes a wrapped preview answer ({attachment}, or {attachment: null} for none) as it is, and ignores what a widget event handler returns', async () => {
    const previews = [{ attachment: { title: 'wrapped' } }, { attachment: null }];
    const listener = createEventListener({
      appId,
      appSecret,
      on: {
        'chat.generateUrlPreview': () => previews.shift(),
        // Untyped on purpose: a handler written in JavaScript may still return a toast to a widget event.
        'client.widgetAction': (() => ({ text: 'ignored' })) as never,
      },
    });
    const server = http.createServer(listener.node);
    const url = await listenNode(server);
    try {
      expect(await deliver(url, makeEvent('chat.generateUrlPreview'))).toMatchObject({ status: 200, body: { attachment: { title: 'wrapped' } } });
      expect(await deliver(url, makeEvent('chat.generateUrlPreview'))).toMatchObject({ status: 200, body: { attachment: null } });
      expect(await deliver(url, makeEvent('client.widgetAction'))).toEqual(acknowledged);
    } finally {
      await closeNode(server);
    }
  });

  it('refuses a body that was parsed already, naming the mistake, instead of throwing', async () => {
    const warnings: string[] = [];
    const listener = createEventListener({ appId, appSecret, logger: { warn: (line: string) => warnings.push(line) } });
    const event = makeEvent('app.uninstall');
    const token = await signEventToken({}, { content: JSON.stringify(event) });
    for (const [body, what] of [
      [event, 'an already-parsed object'],
      [[event], 'an already-parsed array'],
      [undefined, 'no body'],
    ] as const) {
      const answer = await listener.handle({ headers: { 'x-service-event-token': token }, body: body as unknown as string });
      expect(answer).toMatchObject({ status: 500, body: { error: 'InternalServerError', description: expect.stringContaining(`handle() was given ${what}`) } });
      expect(answer.body.description).toMatch(/needs the raw body/);
    }
    expect(warnings).toHaveLength(3);
  });

  it('checks token expiry against the injected clock', async () => {
    const longAgo = Date.UTC(2001, 8, 9);
    const listener = createEventListener({ appId, appSecret, now: () => longAgo + 60_000 });
    const body = JSON.stringify(makeEvent('app.uninstall'));
    const token = await signEventToken({}, { nowMs: longAgo, content: body });
    expect(await listener.handle({ headers: { 'x-service-event-token': token }, body })).toEqual({
      status: 200,
      headers: {},
      body: {},
    });
    const late = createEventListener({ appId, appSecret, now: () => longAgo + 3_600_000, logger: { warn: () => undefined } });
    expect(await late.handle({ headers: { 'x-service-event-token': token }, body })).toMatchObject({
      status: 403,
      body: { error: 'InvalidEventToken', description: 'the event token has expired (expired)' },
    });
  });
});
