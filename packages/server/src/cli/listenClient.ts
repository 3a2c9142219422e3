import { performance } from 'node:perf_hooks';
import { ListenEventFrame, listenPath, type ListenReplyFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';

export interface ListenOptions {
  appId: string;
  server: string;
  /** The app developer's session token or the app's secret. */
  credential: string;
  forwardTo: string;
  /** How long the local listener may take to answer (the server waits no longer than its own limit anyway). */
  forwardTimeoutMs?: number;
  /** One line per event, and news of the connection. */
  print(line: string): void;
}

/** An event forwarded: its name, what the local listener answered (or why not), and how long it took. */
export interface ForwardedEvent {
  name: string;
  status: number | 'unreachable';
  latencyMs: number;
}

const maxReconnectDelayMs = 30_000;

/**
 * The listening side of `aviary listen`: a WebSocket to the server that takes the app's events, each
 * forwarded to the local URL with its exact headers and body and answered with what the local listener
 * answered. Reconnects after a drop (1 s, doubling to 30 s); a refusal of the credential ends it.
 */
export class ListenClient {
  private socket: WebSocket | undefined;
  private stopped = false;
  private reconnectDelayMs = 1000;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private connectedOnce: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** Resolves on the first connection; rejects when the server refuses it. */
  readonly connected: Promise<void>;
  onForwarded: ((event: ForwardedEvent) => void) | undefined;

  constructor(private readonly options: ListenOptions) {
    this.connected = new Promise((resolve, reject) => (this.connectedOnce = { resolve, reject }));
    this.connected.catch(() => undefined);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.close(1000, 'aviary listen stopped');
  }

  private connect(): void {
    const { options } = this;
    const url = new URL(listenPath(options.appId), options.server.replace(/^http/, 'ws'));
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${options.credential}` }, perMessageDeflate: false });
    this.socket = socket;
    socket.on('open', () => {
      this.reconnectDelayMs = 1000;
      options.print(`listening for ${options.appId}'s events on ${options.server}, forwarding to ${options.forwardTo}`);
      this.connectedOnce?.resolve();
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => this.refused(response.statusCode ?? 0, body));
    });
    socket.on('message', (data) => void this.forward(socket, data.toString()));
    socket.on('error', (error) => options.print(`connection error: ${error.message}`));
    socket.on('close', () => this.reconnectLater());
  }

  private reconnectLater(): void {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.options.print(`disconnected; reconnecting in ${this.reconnectDelayMs / 1000} s`);
    this.reconnectTimer = setTimeout(() => this.connect(), this.reconnectDelayMs);
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, maxReconnectDelayMs);
  }

  /** A 4xx is final (wrong app or credential); anything else (5xx, a restart) is worth another try. */
  private refused(status: number, body: string): void {
    let description = body;
    try {
      const parsed = JSON.parse(body) as { error?: string; description?: string };
      description = `${parsed.error}: ${parsed.description}`;
    } catch {
      // Not the API's error shape: print it as it came.
    }
    if (status >= 400 && status < 500) {
      this.stopped = true;
      this.options.print(`refused (HTTP ${status}) ${description}`);
      this.connectedOnce?.reject(new Error(description));
      return;
    }
    this.options.print(`the server answered HTTP ${status}: ${description}`);
    this.reconnectLater();
  }

  private async forward(socket: WebSocket, text: string): Promise<void> {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (!Value.Check(ListenEventFrame, frame)) return;
    const started = performance.now();
    const reply = await this.callLocal(frame);
    const latencyMs = Math.round(performance.now() - started);
    const forwarded: ForwardedEvent = { name: eventName(frame.body), status: reply.type === 'answer' ? reply.status : 'unreachable', latencyMs };
    this.options.print(`${forwarded.name}  ${forwarded.status}  ${latencyMs} ms${reply.type === 'unreachable' ? `  (${reply.error})` : ''}`);
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
    this.onForwarded?.(forwarded);
  }

  private async callLocal(frame: ListenEventFrame): Promise<ListenReplyFrame> {
    try {
      const response = await fetch(this.options.forwardTo, {
        method: 'POST',
        headers: frame.headers,
        body: frame.body,
        signal: AbortSignal.timeout(this.options.forwardTimeoutMs ?? 30_000),
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      return { type: 'answer', id: frame.id, status: response.status, headers, body: await response.text() };
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      return { type: 'unreachable', id: frame.id, error: (cause ?? (error as Error).message).slice(0, 1000) };
    }
  }
}

function eventName(body: string): string {
  try {
    const name = (JSON.parse(body) as { name?: unknown }).name;
    return typeof name === 'string' ? name : '(unnamed event)';
  } catch {
    return '(unnamed event)';
  }
}
