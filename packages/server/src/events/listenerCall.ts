import { performance } from 'node:perf_hooks';
import { request, type Dispatcher } from 'undici';

export interface ListenerCall {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Connecting, the headers and the whole body must all fit in this. */
  answerTimeoutMs: number;
  /** How much of the answer's body to keep; the rest is read and dropped so the connection can be reused. */
  keepBytes: number;
  /** Abandons the call without it counting as an attempt (the server is shutting down). */
  cancel?: AbortSignal;
}

export type FailureReason = 'timeout' | 'connection_failed';

/** How an attempt ended: an answer of any status, or none. */
export type AttemptResult =
  | { kind: 'answered'; status: number; headers: Record<string, string | undefined>; body: Buffer; durationMs: number }
  | { kind: 'unanswered'; reason: FailureReason; error: string; durationMs: number };

export type ListenerCallResult = AttemptResult | { kind: 'cancelled' };

/** An answer bigger than this is cut off: no event answer needs more, and a listener must not hold a worker. */
const maxAnswerBytes = 1024 * 1024;

const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** One POST to an app's listener. Never throws: every way it can end is a result. */
export function callListener(agent: Dispatcher, call: ListenerCall & { cancel: AbortSignal }): Promise<ListenerCallResult>;
export function callListener(agent: Dispatcher, call: Omit<ListenerCall, 'cancel'>): Promise<AttemptResult>;
export async function callListener(agent: Dispatcher, call: ListenerCall): Promise<ListenerCallResult> {
  const deadline = AbortSignal.timeout(call.answerTimeoutMs);
  const signal = call.cancel ? AbortSignal.any([deadline, call.cancel]) : deadline;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await request(call.url, { method: 'POST', dispatcher: agent, headers: call.headers, body: call.body, signal });
    const body = await readBody(response.body, call.keepBytes);
    return { kind: 'answered', status: response.statusCode, headers: singleValued(response.headers), body, durationMs: elapsed() };
  } catch (error) {
    if (call.cancel?.aborted) return { kind: 'cancelled' };
    if (deadline.aborted || timeoutCodes.has(errorCode(error))) {
      return { kind: 'unanswered', reason: 'timeout', error: `no complete answer within ${call.answerTimeoutMs} ms`, durationMs: elapsed() };
    }
    return { kind: 'unanswered', reason: 'connection_failed', error: describeError(error), durationMs: elapsed() };
  }
}

async function readBody(body: Dispatcher.ResponseData['body'], keepBytes: number): Promise<Buffer> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let readBytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    readBytes += chunk.length;
    if (keptBytes < keepBytes) {
      const part = chunk.subarray(0, keepBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (readBytes > maxAnswerBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(kept);
}

function singleValued(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value[0] : value;
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
