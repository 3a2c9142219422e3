import { performance } from 'node:perf_hooks';
import type { ListenReplyFrame, ListenServerFrame, ListenVerdictFrame } from '@aviary/protocol';
import type { CallCanceller, ListenerCall, ListenerCallResult } from './listenerCall.js';

/** One open listen connection (`aviary listen`), as delivery sees it: it takes event frames, and the verdict on each. */
export interface ListenTunnel {
  send(frame: ListenServerFrame): void;
}

interface PendingCall {
  tunnel: ListenTunnel;
  started: number;
  keepBytes: number;
  timer: NodeJS.Timeout;
  resolve: (result: ListenerCallResult) => void;
  canceller: CallCanceller | undefined;
  cancel(): void;
}

/**
 * The listen connections of this process, per app, and the calls waiting for their answers. While an
 * app has one, its events go to the newest instead of its listener URL; when that closes, to the one
 * before it, and with none left, to the URL again. A call ends as an HTTP call would: answered, timed
 * out, or failed to connect (the connection closed before answering).
 */
export class ListenTunnels {
  private readonly byApp = new Map<string, ListenTunnel[]>();
  private readonly pending = new Map<string, PendingCall>();
  private nextId = 0;

  has(appId: string): boolean {
    return this.byApp.has(appId);
  }

  /** Open listen connections in this process (for the metrics). */
  count(): number {
    let n = 0;
    for (const tunnels of this.byApp.values()) n += tunnels.length;
    return n;
  }

  /** Takes the app's events from now on; the returned function gives them back (call it when the connection closes). */
  attach(appId: string, tunnel: ListenTunnel): () => void {
    this.byApp.set(appId, [...(this.byApp.get(appId) ?? []), tunnel]);
    return () => {
      const left = (this.byApp.get(appId) ?? []).filter((open) => open !== tunnel);
      if (left.length === 0) this.byApp.delete(appId);
      else this.byApp.set(appId, left);
      for (const [id, call] of this.pending) {
        if (call.tunnel === tunnel) this.settle(id, unanswered(call, 'connection_failed', 'the listen connection closed before answering'));
      }
    };
  }

  /** Sends the call over the app's newest listen connection; undefined when it has none. */
  call(appId: string, call: Omit<ListenerCall, 'url'>): Promise<ListenerCallResult> | undefined {
    const tunnels = this.byApp.get(appId);
    const tunnel = tunnels?.[tunnels.length - 1];
    if (!tunnel) return undefined;
    if (call.cancel?.isCancelled) return Promise.resolve({ kind: 'cancelled' });
    const id = `c${++this.nextId}`;
    return new Promise<ListenerCallResult>((resolve) => {
      const pending: PendingCall = {
        tunnel,
        started: performance.now(),
        keepBytes: call.keepBytes,
        resolve,
        canceller: call.cancel,
        timer: setTimeout(() => this.settle(id, unanswered(pending, 'timeout', `no complete answer within ${call.answerTimeoutMs} ms`)), call.answerTimeoutMs),
        cancel: () => this.settle(id, { kind: 'cancelled' }),
      };
      this.pending.set(id, pending);
      call.cancel?.add(pending);
      try {
        tunnel.send({ type: 'event', id, headers: call.headers, body: call.body });
      } catch (error) {
        this.settle(id, unanswered(pending, 'connection_failed', `the listen connection failed: ${(error as Error).message}`));
      }
    });
  }

  /** A reply the connection `from` sent; one for a call it was not given (or that already ended) is ignored. */
  reply(from: ListenTunnel, frame: ListenReplyFrame): void {
    const call = this.pending.get(frame.id);
    if (!call || call.tunnel !== from) return;
    if (frame.type === 'unreachable') {
      return this.settle(frame.id, unanswered(call, 'connection_failed', `the listen side could not reach its listener: ${frame.error}`));
    }
    const body = Buffer.from(frame.body, 'utf8');
    this.settle(frame.id, {
      kind: 'answered',
      status: frame.status,
      headers: lowerCased(frame.headers ?? {}),
      body: body.length > call.keepBytes ? body.subarray(0, call.keepBytes) : body,
      durationMs: elapsed(call),
    });
  }

  private settle(id: string, result: ListenerCallResult): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    call.canceller?.delete(call);
    call.resolve(result);
    if (result.kind !== 'cancelled') tellVerdict(call.tunnel, id, result);
  }
}

/** The listening side learns what the platform made of its answer; a connection that has closed hears nothing. */
function tellVerdict(tunnel: ListenTunnel, id: string, result: Exclude<ListenerCallResult, { kind: 'cancelled' }>): void {
  let verdict: ListenVerdictFrame;
  if (result.kind === 'unanswered') verdict = { type: 'verdict', id, outcome: 'failed', reason: result.reason, error: result.error };
  else if (result.status >= 200 && result.status < 300) verdict = { type: 'verdict', id, outcome: 'delivered' };
  else verdict = { type: 'verdict', id, outcome: 'failed', reason: 'http_error', error: `the listener answered HTTP ${result.status}` };
  try {
    tunnel.send(verdict);
  } catch {
    // Closed meanwhile: nobody is left to tell.
  }
}

function unanswered(call: PendingCall, reason: 'timeout' | 'connection_failed', error: string): ListenerCallResult {
  return { kind: 'unanswered', reason, error, durationMs: elapsed(call) };
}

function elapsed(call: PendingCall): number {
  return Math.round(performance.now() - call.started);
}

function lowerCased(headers: Record<string, string>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] ??= value;
  return out;
}
