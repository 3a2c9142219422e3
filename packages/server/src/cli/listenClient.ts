import { performance } from 'node:perf_hooks';
import { ListenServerFrame, listenPath, type ListenReplyFrame, type ListenVerdictFrame } from '@aviary/protocol';
import { Value } from '@sinclair/typebox/value';
import WebSocket from 'ws';
import { forwardToLocal } from './forwardLocal.js';

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

/**
 * An event forwarded: its name, what the local listener answered (or why not), how long it took, and
 * the platform's verdict (`closed` when the connection closed before it came); on a failure, why.
 */
export interface ForwardedEvent {
  name: string;
  status: number | 'unreachable';
  latencyMs: number;
  verdict: ListenVerdictFrame['outcome'] | 'closed';
  reason?: string;
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
  /** The calls of the open connection still waiting for the platform's verdict, by call id. */
  private readonly verdicts = new VerdictWaits();
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
    socket.on('close', () => {
      this.verdicts.closeAll();
      this.reconnectLater();
    });
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
    if (!Value.Check(ListenServerFrame, frame)) return;
    if (frame.type === 'verdict') return this.verdicts.settle(frame);
    const verdict = this.verdicts.expect(frame.id);
    const started = performance.now();
    const reply = await forwardToLocal(frame, this.options.forwardTo, this.options.forwardTimeoutMs ?? 30_000);
    const latencyMs = Math.round(performance.now() - started);
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(reply));
    const forwarded = describe(eventName(frame.body), reply, latencyMs, await verdict);
    this.options.print(`${forwarded.name}  ${forwarded.status}  ${forwarded.verdict}  ${latencyMs} ms${forwarded.reason === undefined ? '' : `  (${forwarded.reason})`}`);
    this.onForwarded?.(forwarded);
  }
}

/** What a forwarded event came to, and why it failed in the words nearest its cause. */
function describe(name: string, reply: ListenReplyFrame, latencyMs: number, verdict: ListenVerdictFrame | undefined): ForwardedEvent {
  const status = reply.type === 'answer' ? reply.status : 'unreachable';
  if (verdict === undefined) return { name, status, latencyMs, verdict: 'closed', reason: 'the connection closed before the server judged the answer' };
  if (verdict.outcome === 'delivered') return { name, status, latencyMs, verdict: 'delivered' };
  // The local listener's own words (the SDK's verification message, say) explain an HTTP refusal best; a
  // time-out or a failed connection is the server's to say.
  const ownWords = verdict.reason === 'http_error' && reply.type === 'answer' ? firstLine(reply.body) : undefined;
  const reason = ownWords ?? (reply.type === 'unreachable' ? reply.error : verdict.error);
  return { name, status, latencyMs, verdict: 'failed', ...(reason ? { reason } : {}) };
}

const firstLine = (text: string): string | undefined => text.split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300);

/** Each forwarded call waits for its verdict, which comes after its event frame; a closed connection ends every wait. */
class VerdictWaits {
  private readonly waiting = new Map<string, (verdict: ListenVerdictFrame | undefined) => void>();

  expect(id: string): Promise<ListenVerdictFrame | undefined> {
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  settle(frame: ListenVerdictFrame): void {
    this.waiting.get(frame.id)?.(frame);
    this.waiting.delete(frame.id);
  }

  closeAll(): void {
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
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
