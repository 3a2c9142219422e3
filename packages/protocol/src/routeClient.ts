/**
 * A typed client for a group of routes (routes/index.ts), built from their definitions: path parameters
 * go into the path, the others into the query (GET, DELETE) or a JSON body, and a failure throws
 * AviaryApiError with the error's code, status and parameter. Pure: it runs in a browser (the web
 * client imports it) as well as in Node, with the `fetch` it is given or the global one.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { AviaryApiError } from './apiError.js';
import { pathParamNames, readsBody, type RouteDefinition } from './routes/define.js';
import type { RouteGroup } from './routes/index.js';

/** The part of the fetch API the client uses, so that neither DOM nor Node types are needed. */
export interface FetchResponse {
  status: number;
  text(): Promise<string>;
}
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials?: 'include' | 'same-origin' | 'omit';
}
export type FetchFunction = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface RouteClientOptions {
  /** The server's base URL, e.g. http://localhost:8080; '' (the default) for the page's own server in a browser. */
  baseUrl?: string;
  /** Headers for every call, read at each call (a session token that changes after signing in). */
  headers?: () => Record<string, string>;
  /** 'include' sends the session cookie cross-origin; a browser on the server's own pages needs nothing. */
  credentials?: FetchInit['credentials'];
  fetch?: FetchFunction;
}

type CallOf<R> =
  R extends RouteDefinition<infer P extends TObject, infer T extends TSchema>
    ? {} extends Static<P>
      ? (params?: Static<P>) => Promise<Static<T>>
      : (params: Static<P>) => Promise<Static<T>>
    : never;

export type RouteClient<G extends RouteGroup> = { readonly [K in keyof G]: CallOf<G[K]> };

export function createRouteClient<G extends RouteGroup>(group: G, options: RouteClientOptions = {}): RouteClient<G> {
  const fetchFunction = options.fetch ?? (globalThis as { fetch?: FetchFunction }).fetch;
  if (!fetchFunction) throw new Error('no fetch function: pass options.fetch');
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const client: Record<string, (params?: Record<string, unknown>) => Promise<unknown>> = {};
  for (const [key, route] of Object.entries(group)) {
    client[key] = async (params = {}) => {
      const request = buildRequest(route, params);
      const response = await fetchFunction(baseUrl + request.path, {
        method: route.verb,
        headers: { ...options.headers?.(), ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
      });
      const body = await readJsonAnswer(response);
      if (response.status >= 200 && response.status < 300) return body;
      throw new AviaryApiError(response.status, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
    };
  }
  return client as RouteClient<G>;
}

/** The path (with its query) and JSON body of one call. */
export function buildRequest(route: RouteDefinition, params: Record<string, unknown>): { path: string; body?: string } {
  const inPath = new Set(pathParamNames(route.path));
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`${route.name}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const rest = Object.entries(params).filter(([name, value]) => !inPath.has(name) && value !== undefined);
  if (readsBody(route)) return { path, body: JSON.stringify(Object.fromEntries(rest)) };
  const query = rest.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`);
  return { path: query.length > 0 ? `${path}?${query.join('&')}` : path };
}

/** A JSON answer; one that is not JSON (a proxy's error page) as an error body naming its status. */
export async function readJsonAnswer(response: FetchResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { error: `HTTP${response.status}`, description: text.slice(0, 200) };
  }
}
