import { bindMethods, methodRequest, readJsonAnswer, type BrandedIds, type IdTyping, type MethodCalls } from '@aviary/protocol';
import { AviaryApiError, AviaryTimeoutError } from './errors.js';
import { parseRetryAfter, retryDelay, sleep } from './retry.js';

export type { IdTyping } from '@aviary/protocol';
/** Per call: a signal of the caller's own, besides the client's timeout. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface AviaryClientOptions {
  /** The server's base URL, e.g. http://localhost:8080 */
  baseUrl: string;
  /**
   * The credential, sent as `Authorization: Bearer`: a user token (from app.install) or a bot token, a
   * person's session token (`as_s_…`, from signing in) for the methods a person calls, or the app's secret
   * (`as_…`) for the developer methods an app calls on itself (apps.getInfo, deliveries.list…, with its
   * id as `appId`).
   */
  token: string;
  /** How many times a 429 or a 503 is retried (default 3). */
  maxRetries?: number;
  /** The longest wait before a retry the client accepts, in seconds (default 60); a longer `Retry-After` is thrown at once. */
  maxRetryAfterSeconds?: number;
  /** How long one attempt may take, in milliseconds, before it fails with `AviaryTimeoutError` (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Waits before a retry (default: a timer); tests pass one that resolves at once and records the wait. */
  delay?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
}

export interface AviaryClient<Ids extends IdTyping = BrandedIds> extends MethodCalls<Ids, CallOptions> {}

const defaults = { maxRetries: 3, maxRetryAfterSeconds: 60, timeoutMs: 30_000 };

/** A typed client for the method API, with retries and a time-out: `await client.chat.sendMessage({ to, text })`. */
export class AviaryClient<Ids extends IdTyping = BrandedIds> {
  private readonly options: Required<Omit<AviaryClientOptions, 'baseUrl' | 'token'>> & { baseUrl: string; token: string };

  constructor(options: AviaryClientOptions) {
    if (!options.baseUrl) throw new TypeError('AviaryClient needs baseUrl, the server’s URL (such as http://localhost:8080)');
    if (!options.token) throw new TypeError('AviaryClient needs a token: a user token from app.install, the bot’s token, a session token, or the app’s secret');
    this.options = {
      ...defaults,
      fetch: globalThis.fetch,
      delay: sleep,
      random: Math.random,
      ...withoutUndefined(options),
      token: options.token,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    Object.assign(this, bindMethods((method, params, callOptions) => this.call(method, params, callOptions as CallOptions | undefined)));
  }

  /** Calls any method by name; the namespaced functions are typed shortcuts for this. */
  async call(method: string, params: Record<string, unknown> = {}, callOptions: CallOptions = {}): Promise<unknown> {
    const { maxRetries, maxRetryAfterSeconds, delay, random } = this.options;
    for (let attempt = 0; ; attempt++) {
      const response = await this.attempt(method, params, callOptions.signal);
      if (response.status === 200) return response.body;
      const wait = retryDelay({
        status: response.status,
        retryAfterMs: parseRetryAfter(response.retryAfter, Date.now()),
        attempt,
        maxRetries,
        maxRetryAfterMs: maxRetryAfterSeconds * 1000,
        random,
      });
      if (wait === undefined) throw new AviaryApiError(response.status, asObject(response.body));
      await delay(wait, callOptions.signal);
    }
  }

  /** One request, bounded by the timeout, read whole (so that the timeout covers the body too). */
  private async attempt(method: string, params: Record<string, unknown>, callerSignal: AbortSignal | undefined) {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    try {
      const request = methodRequest(this.options.baseUrl, method, params, this.options.token);
      const response = await this.options.fetch(request.url, { ...request.init, signal });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await readJsonAnswer(response) };
    } catch (error) {
      if (timeout.aborted && !callerSignal?.aborted) throw new AviaryTimeoutError(method, this.options.timeoutMs);
      throw error;
    }
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

function asObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
