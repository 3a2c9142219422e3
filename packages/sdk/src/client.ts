import { api, AviaryApiError, readJsonAnswer, type ParamsOf, type ResultOf } from '@aviary/protocol';

type Api = typeof api;
type Call<M> = {} extends ParamsOf<M> ? (params?: ParamsOf<M>) => Promise<ResultOf<M>> : (params: ParamsOf<M>) => Promise<ResultOf<M>>;
type Namespaces = { [N in keyof Api]: { [M in keyof Api[N]]: Call<Api[N][M]> } };

export interface AviaryClientOptions {
  /** The server's base URL, e.g. http://localhost:8080 */
  baseUrl: string;
  /** A user token (from app.install) or a bot token. */
  token: string;
  /** How many times a 429 is retried after its Retry-After (default 3). */
  maxRateLimitRetries?: number;
  /** The longest Retry-After the client is willing to wait, in seconds (default 60). */
  maxRetryAfterSeconds?: number;
  fetch?: typeof fetch;
}

export interface AviaryClient extends Namespaces {}

/** A typed client for the method API: `await client.chat.sendMessage({ to, text })`. */
export class AviaryClient {
  private readonly options: Required<Omit<AviaryClientOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: AviaryClientOptions) {
    this.options = {
      maxRateLimitRetries: 3,
      maxRetryAfterSeconds: 60,
      fetch: globalThis.fetch,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    for (const [namespace, methods] of Object.entries(api)) {
      const bound: Record<string, (params?: Record<string, unknown>) => Promise<unknown>> = {};
      for (const [name, method] of Object.entries(methods)) bound[name] = (params) => this.call(method.name, params ?? {});
      (this as unknown as Record<string, unknown>)[namespace] = bound;
    }
  }

  /** Calls any method by name; the namespaced functions are typed shortcuts for this. */
  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.options.fetch(`${this.options.baseUrl}/v1/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify(params),
      });
      const body = await readJsonAnswer(response);
      if (response.status === 200) return body;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (response.status === 429 && attempt < this.options.maxRateLimitRetries && retryAfter <= this.options.maxRetryAfterSeconds) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, retryAfter) * 1000));
        continue;
      }
      throw new AviaryApiError(response.status, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
    }
  }
}
