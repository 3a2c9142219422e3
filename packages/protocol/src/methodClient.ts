/**
 * The one typed client of the method API, for every caller: an app (its token), a person's program (a
 * session token) or the web client (the session cookie of the page's own server). The SDK's AviaryClient
 * adds retries and time-outs around the same requests. Pure: it runs in a browser as well as in Node.
 */
import { AviaryApiError } from './apiError.js';
import type { ParamsOf, ResultOf } from './define.js';
import type { BrandedIds, PlainIds } from './ids.js';
import { idempotencyParamOf } from './idempotency.js';
import { api } from './methods/index.js';
import { readJsonAnswer, type FetchFunction, type FetchInit } from './routeClient.js';

type Api = typeof api;
/** Branded ids (the SDK's default), or plain strings for code that makes ids itself. */
export type IdTyping = BrandedIds | PlainIds;
type Call<M, Ids extends IdTyping, Options> = {} extends ParamsOf<M, [Ids]>
  ? (params?: ParamsOf<M, [Ids]>, options?: Options) => Promise<ResultOf<M, [Ids]>>
  : (params: ParamsOf<M, [Ids]>, options?: Options) => Promise<ResultOf<M, [Ids]>>;
/** Every method as a typed function, by namespace: `client.chat.sendMessage({ to, text })`. */
export type MethodCalls<Ids extends IdTyping = PlainIds, Options = never> = { [N in keyof Api]: { [M in keyof Api[N]]: Call<Api[N][M], Ids, Options> } };

/**
 * One call as every typed client sends it: `POST <baseUrl>/v1/<method>` with a JSON body, and the
 * credential as `Authorization: Bearer` when there is one (without, a browser sends the session cookie).
 * A call that carries its method's idempotency param also carries it as `Idempotency-Key`, so that a
 * proxy may resend it to another server process.
 */
export function methodRequest(baseUrl: string, method: string, params: Record<string, unknown>, bearer: string | undefined): { url: string; init: FetchInit } {
  const idempotencyParam = idempotencyParamOf(method);
  const key = idempotencyParam === undefined ? undefined : params[idempotencyParam];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(bearer !== undefined ? { authorization: `Bearer ${bearer}` } : {}),
    ...(typeof key === 'string' && key !== '' ? { 'idempotency-key': key } : {}),
  };
  return { url: `${baseUrl.replace(/\/+$/, '')}/v1/${method}`, init: { method: 'POST', headers, body: JSON.stringify(params) } };
}

/** Binds `call` to every method of the API, by namespace. */
export function bindMethods<Calls>(call: (method: string, params: Record<string, unknown>, options: unknown) => Promise<unknown>): Calls {
  return Object.fromEntries(
    Object.entries(api).map(([namespace, methods]) => [
      namespace,
      Object.fromEntries(Object.values(methods).map((method) => [method.name.slice(namespace.length + 1), (params?: Record<string, unknown>, options?: unknown) => call(method.name, params ?? {}, options)])),
    ]),
  ) as Calls;
}

/** A property that names a method part: not a symbol, and not `then` (so that awaiting a client is no call). */
const partName = (key: string | symbol): key is string => typeof key === 'string' && key !== 'then';

/**
 * Like bindMethods, without reading the definitions: `client.<namespace>.<verb>(params)` calls
 * `<namespace>.<verb>`, and the types name the methods that exist. A browser bundle of the client so
 * carries none of the method schemas.
 */
function proxyMethods<Calls>(call: (method: string, params: Record<string, unknown>) => Promise<unknown>): Calls {
  const namespace = (name: string) =>
    new Proxy({}, { get: (_, verb) => (partName(verb) ? (params?: Record<string, unknown>) => call(`${name}.${verb}`, params ?? {}) : undefined) });
  return new Proxy({}, { get: (_, name) => (partName(name) ? namespace(name) : undefined) }) as Calls;
}

export interface MethodClientOptions {
  /** The server's base URL; '' (the default) for the page's own server in a browser. */
  baseUrl?: string;
  /** The credential sent as `Authorization: Bearer`, read at each call: an app's token or a session token; none sends the cookie. */
  bearer?: () => string | undefined;
  fetch?: FetchFunction;
}

/** A typed client that throws AviaryApiError for every answer but 200, without retrying. */
export function createMethodClient<Ids extends IdTyping = PlainIds>(options: MethodClientOptions = {}): MethodCalls<Ids> {
  const fetchFunction = options.fetch ?? ((url: string, init: FetchInit) => (globalThis as unknown as { fetch: FetchFunction }).fetch(url, init));
  return proxyMethods<MethodCalls<Ids>>(async (method, params) => {
    const request = methodRequest(options.baseUrl ?? '', method, params, options.bearer?.());
    const response = await fetchFunction(request.url, request.init);
    const body = await readJsonAnswer(response);
    if (response.status === 200) return body;
    throw new AviaryApiError(response.status, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
  });
}
