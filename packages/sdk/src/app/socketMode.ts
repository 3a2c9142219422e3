/**
 * Socket Mode: the app's events over a WebSocket the app opens to Aviary with its secret (the listen
 * connection of `aviary listen`, docs/reference/developer-api.md), instead of POSTs to a public URL. So
 * an app behind a firewall or NAT needs no public address, in development and in production alike.
 * Each event frame goes through the app's own listener (`handle`): verified as a POST would be, and
 * answered with what the handler answered. A dropped connection (a server restart, a network blip) is
 * opened again after a backoff with jitter; a refusal of the app's id or secret stops it.
 */
import { ListenServerFrame, listenPath, type ListenEventFrame, type ListenReplyFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';
import type { EventListener } from './listener.js';

export interface SocketModeOptions {
  /** The Aviary server, such as https://aviary.example (http/https: the WebSocket is ws/wss). */
  baseUrl: string;
  appId: string;
  appSecret: string;
  /** The first wait before reconnecting, doubled after each failed try up to `maxReconnectDelayMs` (default 1000 and 30000). */
  minReconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** Told of connections, drops and failed events (default: `console`). */
  logger?: { info?(message: string): void; warn(message: string): void };
}

export type SocketModeState = 'connecting' | 'open' | 'waiting' | 'stopped';

export interface SocketModeReceiver {
  /** Resolves once the first connection is open; rejects when the server refuses the app's id or secret. */
  start(): Promise<void>;
  /** Closes the connection and stops reconnecting. */
  stop(): Promise<void>;
  readonly state: SocketModeState;
  /** Called at each change of state: `open` after every (re)connection. */
  onStateChange: ((state: SocketModeState) => void) | undefined;
}

/** Close code of a normal stop: the server gives the app's events back to its listener URL. */
const NORMAL = 1000;

export function socketModeReceiver(listener: Pick<EventListener, 'handle'>, options: SocketModeOptions): SocketModeReceiver {
  for (const name of ['baseUrl', 'appId', 'appSecret'] as const) {
    if (typeof options[name] !== 'string' || options[name] === '') throw new TypeError(`socketModeReceiver needs ${name}`);
  }
  const url = new URL(listenPath(options.appId), options.baseUrl.replace(/^http/, 'ws'));
  const minDelay = options.minReconnectDelayMs ?? 1000;
  const maxDelay = options.maxReconnectDelayMs ?? 30_000;
  const logger = options.logger ?? console;
  let socket: WebSocket | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = minDelay;
  let first: { resolve(): void; reject(error: Error): void } | undefined;

  const receiver: SocketModeReceiver = {
    state: 'stopped',
    onStateChange: undefined,
    start() {
      if (receiver.state !== 'stopped') return Promise.reject(new Error('the Socket Mode receiver is already started'));
      const started = new Promise<void>((resolve, reject) => (first = { resolve, reject }));
      connect();
      return started;
    },
    async stop() {
      clearTimeout(timer);
      setState('stopped');
      first?.reject(new Error('the Socket Mode receiver was stopped before it connected'));
      first = undefined;
      const open = socket;
      socket = undefined;
      if (!open || open.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        open.once('close', () => resolve());
        open.close(NORMAL, 'the app stopped');
      });
    },
  };

  function setState(state: SocketModeState): void {
    (receiver as { state: SocketModeState }).state = state;
    receiver.onStateChange?.(state);
  }

  function connect(): void {
    setState('connecting');
    const opened = new WebSocket(url, { headers: { authorization: `Bearer ${options.appSecret}` }, perMessageDeflate: false });
    socket = opened;
    opened.on('open', () => {
      delay = minDelay;
      setState('open');
      logger.info?.(`aviary: Socket Mode connected to ${url.origin} for ${options.appId}`);
      first?.resolve();
      first = undefined;
    });
    opened.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => refused(opened, response.statusCode ?? 0, body));
    });
    opened.on('message', (data, isBinary) => {
      if (!isBinary) void answer(opened, data.toString());
    });
    opened.on('error', (error) => logger.warn(`aviary: Socket Mode connection error: ${error.message}`));
    opened.on('close', () => {
      if (socket === opened && receiver.state !== 'stopped') reconnectLater();
    });
  }

  /** A 4xx is final (a wrong app id or secret: trying again cannot help); anything else is worth another try. */
  function refused(from: WebSocket, status: number, body: string): void {
    if (socket !== from || receiver.state === 'stopped') return;
    const description = errorText(body);
    if (status >= 400 && status < 500) {
      logger.warn(`aviary: Socket Mode refused (HTTP ${status}): ${description}`);
      setState('stopped');
      socket = undefined;
      first?.reject(new Error(`Socket Mode refused (HTTP ${status}): ${description}`));
      first = undefined;
      return;
    }
    logger.warn(`aviary: Socket Mode: the server answered HTTP ${status}: ${description}`);
    from.terminate();
  }

  function reconnectLater(): void {
    clearTimeout(timer);
    // Full jitter: many app processes dropped by one restart do not all come back at the same moment.
    const wait = Math.round(delay / 2 + Math.random() * (delay / 2));
    logger.warn(`aviary: Socket Mode disconnected; reconnecting in ${wait} ms`);
    setState('waiting');
    timer = setTimeout(connect, wait);
    delay = Math.min(delay * 2, maxDelay);
  }

  async function answer(from: WebSocket, text: string): Promise<void> {
    const frame = parseFrame(text);
    if (!frame) return;
    if (frame.type === 'verdict') {
      if (frame.outcome === 'failed') logger.warn(`aviary: Aviary counted an event as failed (${frame.reason ?? 'unknown'}): ${frame.error ?? ''}`);
      return;
    }
    const reply = await handled(frame);
    if (from.readyState === WebSocket.OPEN) from.send(JSON.stringify(reply));
  }

  async function handled(frame: ListenEventFrame): Promise<ListenReplyFrame> {
    try {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(frame.headers)) headers[name.toLowerCase()] = value;
      const answered = await listener.handle({ headers, body: frame.body });
      return { type: 'answer', id: frame.id, status: answered.status, headers: answered.headers, body: JSON.stringify(answered.body) };
    } catch (error) {
      return { type: 'unreachable', id: frame.id, error: `the app failed: ${(error as Error).message}`.slice(0, 1000) };
    }
  }

  return receiver;
}

function parseFrame(text: string): ListenServerFrame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Value.Check(ListenServerFrame, value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: string; description?: string };
    return `${parsed.error}: ${parsed.description}`;
  } catch {
    return body.slice(0, 300);
  }
}
