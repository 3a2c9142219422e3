import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AviaryEvent, EventTokenClaims } from '@aviary/protocol';
import { createEventListener, type EventListener, type EventListenerOptions } from '@aviary/sdk';

/** One POST a test listener received. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: any;
  /** The body exactly as it arrived. */
  raw: Buffer;
  /** performance.now() when the body had arrived. */
  at: number;
}

/** An event the SDK listener accepted: its token verified with the app's id and secret. */
export interface VerifiedEvent {
  event: AviaryEvent;
  claims: EventTokenClaims;
  eventId: string;
}

/**
 * `after` holds the answer back until the test settles it (see `gate`); 'hang' never answers; 'sdk'
 * answers through @aviary/sdk's createEventListener, as a real app does (403 until `verifyAs` has given
 * it the app's credentials).
 */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; after?: Promise<unknown> } | 'hang' | 'sdk';

/** Decides the answer to each request; `index` counts from 0. */
export type Responder = (request: Received, index: number) => Answer;

export interface TestListener {
  url: string;
  /** Every POST, whatever it was answered. */
  received: Received[];
  /** The events the SDK accepted (see Answer 'sdk'). */
  verified: VerifiedEvent[];
  /** Replaced at will during a test. */
  respond: Responder;
  /**
   * (Re)builds the SDK listener with the app's id and secret, as an app does after a secret rotation;
   * `options` are the SDK's (`onEvent` answers the event after it has been recorded in `verified`).
   */
  verifyAs(appId: string, appSecret: string, options?: Partial<EventListenerOptions>): void;
  /** Requests being answered right now (hanging ones included). */
  open(): number;
  /** The most requests that were open at once. */
  maxOpen(): number;
  /** Resolves once `count` requests are being answered at the same time. */
  waitForOpen(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Resolves once the SDK has accepted `count` events. */
  waitForVerified(count: number, timeoutMs?: number): Promise<VerifiedEvent[]>;
  /** Resolves once no connection to the listener is open: everything sent to it has been read. */
  allConnectionsClosed(): Promise<void>;
  close(): Promise<void>;
}

export const answerOk: Responder = () => ({ status: 200, body: '{}' });
export const answerWithSdk: Responder = () => 'sdk';

/**
 * The one fake app listener of the tests: a real node:http server on loopback that records what the
 * service sends. `port` brings back a listener where one was before (see `closedPortUrl`); any free one by default.
 */
export async function startListener(respond: Responder = answerOk, port = 0): Promise<TestListener> {
  const received: Received[] = [];
  const verified: VerifiedEvent[] = [];
  const changes = new Changes();
  let sdk: EventListener | undefined;
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => {
      open--;
      changes.notify();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      const request: Received = { headers: req.headers, body: text ? JSON.parse(text) : undefined, raw, at: performance.now() };
      received.push(request);
      changes.notify();
      const answer = listener.respond(request, received.length - 1);
      if (answer === 'hang') return;
      if (answer === 'sdk') return void answerThroughSdk(sdk, request, res);
      void Promise.resolve(answer.after).then(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
  });
  server.on('connection', (socket) => socket.on('close', () => changes.notify()));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;

  const listener: TestListener = {
    url,
    received,
    verified,
    respond,
    verifyAs(appId, appSecret, options = {}) {
      sdk = createEventListener({
        ...options,
        appId,
        appSecret,
        onEvent: async (event, context) => {
          verified.push({ event, claims: context.claims, eventId: context.eventId });
          changes.notify();
          return (await options.onEvent?.(event, context)) as never;
        },
      });
    },
    open: () => open,
    maxOpen: () => maxOpen,
    async waitForOpen(count, timeoutMs = 5000) {
      await changes.until(() => open >= count, timeoutMs, () => `the listener had ${open} of ${count} requests open at once in ${timeoutMs} ms`);
    },
    async waitFor(count, timeoutMs = 5000) {
      await changes.until(() => received.length >= count, timeoutMs, () => `the listener received ${received.length} of ${count} requests in ${timeoutMs} ms`);
      return received.slice(0, count);
    },
    async waitForVerified(count, timeoutMs = 5000) {
      await changes.until(() => verified.length >= count, timeoutMs, () => `the app accepted ${verified.length} of ${count} events in ${timeoutMs} ms`);
      return verified.slice(0, count);
    },
    async allConnectionsClosed() {
      const connections = () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
      while ((await connections()) > 0) await changes.next();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return listener;
}

function answerThroughSdk(sdk: EventListener | undefined, request: Received, res: ServerResponse): void {
  if (!sdk) return void res.writeHead(403).end();
  void sdk.handle({ headers: request.headers, body: request.raw }).then((answer) => {
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body));
  });
}

/** Wakes whoever waits for the listener's state to change (a request, an accepted event, a closed connection). */
class Changes {
  private waiters: Array<() => void> = [];

  notify(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves when `holds()` does, checked at each change; the time-out only bounds the wait. */
  async until(holds: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!holds()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(describe());
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.next(), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }
}

/** A loopback URL where nothing listens: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/events`;
}

/** A promise the test settles by hand: an answer held back (`after`) until the test has seen what it waits for. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A clock the test moves by hand, for retry schedules. */
export function fakeClock(start = Date.now()) {
  const clock = { time: start, now: () => clock.time, advance: (ms: number) => (clock.time += ms) };
  return clock;
}
