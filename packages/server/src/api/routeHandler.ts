import type { RouteDefinition, RouteName } from '@aviary/protocol';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ServerContext } from '../context.js';

/** What a handler may need of the HTTP exchange beyond its parameters: signing in and out only. */
export interface RouteExchange {
  /** The session token the request carries (Bearer, else the session cookie), if any. */
  sessionToken(): string | undefined;
  /** The client's address, as AVIARY_TRUST_PROXY decides (security/clientAddress.ts). */
  clientAddress(): string;
  /** The request's User-Agent, if any (kept with a new session). */
  userAgent(): string | undefined;
  /** A cookie of the request, decoded (the device cookie of signing in). */
  cookie(name: string): string | undefined;
  setHeader(name: string, value: string): void;
}

export interface RouteHandler<R extends RouteDefinition = RouteDefinition> {
  route: R;
  handle(params: Static<R['params']>, ctx: ServerContext, exchange: RouteExchange): Promise<Static<R['result']>>;
}

/** Binds a route's definition (from @aviary/protocol) to the code that carries it out. */
export function defineRouteHandler<P extends TObject, T extends TSchema, R extends RouteDefinition<P, T>>(
  route: R,
  handle: (params: Static<R['params']>, ctx: ServerContext, exchange: RouteExchange) => Promise<Static<R['result']>>,
): RouteHandler<R> {
  return { route, handle };
}

/**
 * One handler for each route of @aviary/protocol, under the route's name: a route without a handler, or a
 * handler filed under another route's name, is a type error (test/api/routeHandlerTable.test.ts shows both
 * and checks the table at run time too).
 */
export type RouteHandlerTable = { readonly [N in RouteName]: RouteHandler<RouteDefinition & { name: N }> };
