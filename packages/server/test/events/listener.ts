import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One POST a test listener received. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: any;
  /** The body exactly as it arrived. */
  raw: Buffer;
  /** performance.now() when the body had arrived. */
  at: number;
}

/** `delayMs` holds the answer back that long; 'hang' never answers. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/** Decides the answer to each request; `index` counts from 0. */
export type Responder = (request: Received, index: number) => Answer;

export interface TestListener {
  url: string;
  received: Received[];
  /** Replaced at will during a test. */
  respond: Responder;
  /** Requests being answered right now (hanging ones included). */
  open(): number;
  /** The most requests that were open at once. */
  maxOpen(): number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const answerOk: Responder = () => ({ status: 200, body: '{}' });

/** A real app listener on loopback, plain node:http, that records what the service sends. */
export async function startListener(respond: Responder = answerOk): Promise<TestListener> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let open = 0;
  let maxOpen = 0;
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    open++;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => {
      open--;
      hanging.delete(res);
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      const request: Received = { headers: req.headers, body: text ? JSON.parse(text) : undefined, raw, at: performance.now() };
      received.push(request);
      for (const wake of waiters.splice(0)) wake();
      const answer = listener.respond(request, received.length - 1);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const listener: TestListener = {
    url: `http://127.0.0.1:${port}/events`,
    received,
    respond,
    open: () => open,
    maxOpen: () => maxOpen,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the listener received ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return listener;
}

/** A loopback URL where nothing listens: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/events`;
}

/** Waits until `check` holds, polling; for state that changes after the listener has answered. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A clock the test moves by hand, for retry schedules. */
export function fakeClock(start = Date.now()) {
  const clock = { time: start, now: () => clock.time, advance: (ms: number) => (clock.time += ms) };
  return clock;
}
