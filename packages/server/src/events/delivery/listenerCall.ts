import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { isInternalAddressRefused } from '../../net/guardedAgent.js';

export interface ListenerCall {
  url: string;
  /** POST (every delivery) unless GET: a widget URL loaded as a client would, for a test event; a GET sends no body. */
  method?: 'GET';
  body: string;
  headers: Record<string, string>;
  /** Connecting, the headers and the whole body must all fit in this. */
  answerTimeoutMs: number;
  /** How much of the answer's body to keep; the rest is read and dropped so the connection can be reused. */
  keepBytes: number;
  /** Abandons the call without it counting as an attempt (the server is shutting down). */
  cancel?: CallCanceller;
}

export type FailureReason = 'timeout' | 'connection_failed';

/** How an attempt ended: an answer of any status, or none. */
export type AttemptResult =
  | { kind: 'answered'; status: number; headers: Record<string, string | undefined>; body: Buffer; durationMs: number }
  | {
      kind: 'unanswered';
      reason: FailureReason;
      error: string;
      durationMs: number;
      /** The listener's address is internal and not allowed: nothing was sent (a `connection_failed`). */
      internalAddress?: true;
    };

export type ListenerCallResult = AttemptResult | { kind: 'cancelled' };

/** A call in flight, over HTTP or a listen connection. */
export interface Cancellable {
  cancel(): void;
}

/**
 * Abandons every call given it, at once, when `cancelAll()` is called (at shutdown). Lighter than an
 * AbortSignal listener per call: one set entry each.
 */
export class CallCanceller {
  private readonly calls = new Set<Cancellable>();
  private cancelled = false;

  get isCancelled(): boolean {
    return this.cancelled;
  }

  cancelAll(): void {
    this.cancelled = true;
    for (const call of [...this.calls]) call.cancel();
  }

  /** @internal */
  add(call: Cancellable): void {
    this.calls.add(call);
  }

  /** @internal */
  delete(call: Cancellable): void {
    this.calls.delete(call);
  }
}

/** An answer bigger than this is cut off: no event answer needs more, and a listener must not hold a worker. */
const maxAnswerBytes = 1024 * 1024;

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * One POST to an app's listener. Never throws: every way it can end is a result. Sent with undici's
 * `dispatch` and a handler of our own rather than `request()`: no response stream, no async iterator,
 * no AbortSignal inside undici (this runs for every attempt).
 */
export function callListener(agent: Dispatcher, call: ListenerCall & { cancel: CallCanceller }): Promise<ListenerCallResult>;
export function callListener(agent: Dispatcher, call: Omit<ListenerCall, 'cancel'>): Promise<AttemptResult>;
export function callListener(agent: Dispatcher, call: ListenerCall): Promise<ListenerCallResult> {
  return new Promise<ListenerCallResult>((resolve) => new ListenerCallHandler(agent, call, resolve).start());
}

/** One call in flight: undici's handler (its legacy callbacks, which undici calls without adapting them), a deadline, a canceller. */
class ListenerCallHandler {
  private readonly started = performance.now();
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private abortRequest: ((reason: Error) => void) | undefined;
  /** Why we stopped the request ourselves, once we have. */
  private stopReason: Error | undefined;
  private status = 0;
  private headers: Record<string, string | undefined> = {};
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readBytes = 0;

  constructor(
    private readonly agent: Dispatcher,
    private readonly call: ListenerCall,
    private readonly resolve: (result: ListenerCallResult) => void,
  ) {}

  start(): void {
    const { call } = this;
    if (call.cancel?.isCancelled) return this.finish({ kind: 'cancelled' });
    call.cancel?.add(this);
    this.timer = setTimeout(() => {
      this.finish({ kind: 'unanswered', reason: 'timeout', error: `no complete answer within ${call.answerTimeoutMs} ms`, durationMs: this.elapsed() });
      this.stop(new Error('listener answer timed out'));
    }, call.answerTimeoutMs);
    let target: URL;
    try {
      target = parsedUrl(call.url);
    } catch (error) {
      return this.onError(error as Error);
    }
    try {
      this.agent.dispatch(
        call.method === 'GET'
          ? { origin: target.origin, path: target.pathname + target.search, method: 'GET', headers: call.headers }
          : { origin: target.origin, path: target.pathname + target.search, method: 'POST', headers: call.headers, body: call.body },
        this as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      this.onError(error as Error);
    }
  }

  cancel(): void {
    this.finish({ kind: 'cancelled' });
    this.stop(new Error('listener call cancelled'));
  }

  // undici's handler callbacks.

  onConnect(abort: (reason: Error) => void): void {
    this.abortRequest = abort;
    if (this.stopReason) abort(this.stopReason);
  }

  onHeaders(statusCode: number, rawHeaders: Array<Buffer | string>): boolean {
    this.status = statusCode;
    this.headers = singleValuedRaw(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    const { keepBytes } = this.call;
    this.readBytes += chunk.length;
    if (this.keptBytes < keepBytes) {
      const part = chunk.length <= keepBytes - this.keptBytes ? chunk : chunk.subarray(0, keepBytes - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    if (this.readBytes > maxAnswerBytes) {
      // Enough: what is kept is the answer, and the connection is dropped rather than drained.
      this.answered();
      this.stop(new Error('listener answer too large'));
      return false;
    }
    return true;
  }

  onComplete(): void {
    this.answered();
  }

  onError(error: Error): void {
    if (this.settled) return;
    if (isInternalAddressRefused(error)) {
      // One sentence whatever is (or is not) listening there: nothing was sent to find out.
      const refused = { kind: 'unanswered', reason: 'connection_failed', error: `the listener's ${error.message}`, internalAddress: true } as const;
      return this.finish({ ...refused, durationMs: this.elapsed() });
    }
    const timedOut = timeoutCodes.has(errorCode(error));
    this.finish(
      timedOut
        ? { kind: 'unanswered', reason: 'timeout', error: `no complete answer within ${this.call.answerTimeoutMs} ms`, durationMs: this.elapsed() }
        : { kind: 'unanswered', reason: 'connection_failed', error: describeError(error), durationMs: this.elapsed() },
    );
  }

  private answered(): void {
    const body = this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept);
    this.finish({ kind: 'answered', status: this.status, headers: this.headers, body, durationMs: this.elapsed() });
  }

  private finish(result: ListenerCallResult): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.call.cancel?.delete(this);
    this.resolve(result);
  }

  private stop(reason: Error): void {
    this.stopReason ??= reason;
    this.abortRequest?.(reason);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

/** Listener URLs, parsed once each (an app's URL is the same for all its events). */
const parsedUrls = new Map<string, URL>();

function parsedUrl(url: string): URL {
  let parsed = parsedUrls.get(url);
  if (!parsed) {
    parsed = new URL(url);
    if (parsedUrls.size >= 1_000) parsedUrls.delete(parsedUrls.keys().next().value as string);
    parsedUrls.set(url, parsed);
  }
  return parsed;
}

/** Raw header pairs as one lower-case name → first value. */
function singleValuedRaw(rawHeaders: Array<Buffer | string>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toString('latin1').toLowerCase();
    if (!Object.hasOwn(out, name)) out[name] = rawHeaders[i + 1].toString('latin1');
  }
  return out;
}

function errorCode(error: unknown): string {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return String(typeof code === 'string' ? code : (cause?.code ?? ''));
}

function describeError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
