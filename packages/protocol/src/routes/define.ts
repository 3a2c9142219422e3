import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { RateClass } from '../define.js';
import type { ErrorCode } from '../errors.js';

export type RouteVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `session` needs a signed-in person (the session token as `Authorization: Bearer`
 * or the session cookie); `none` is open to anyone (signing in and out).
 */
export type RouteAuth = 'session' | 'none';

/**
 * One route of the APIs people's clients call (the client API, the developer API, sessions), defined
 * once: the server runs it through one pipeline, the typed clients call it, OpenAPI describes it.
 */
export interface RouteDefinition<P extends TObject = TObject, R extends TSchema = TSchema> {
  /** `<group>.<route>`, e.g. `client.sendMessage`: its handler, its rate-limit bucket and its OpenAPI operation. */
  name: string;
  summary: string;
  verb: RouteVerb;
  /** The URL pattern; each `:name` segment is a path parameter that `params` declares. */
  path: string;
  auth: RouteAuth;
  /** The /v1 rate class a person's calls count against (routeRateClass gives the default). */
  rateClass?: RateClass;
  /**
   * The path parameters, then the query's (GET, DELETE) or the JSON body's fields (POST, PUT, PATCH).
   * With `additionalProperties: false`, a field it does not declare is refused rather than ignored.
   */
  params: P;
  /** The parameter that is the whole JSON body, for a route whose body is one object rather than named fields. */
  bodyParam?: string;
  /** The status of a success; 200 unless said. */
  status?: 200 | 201;
  result: R;
  /** The route's own error codes, beyond those every route can answer (routeCommonErrors). */
  errors: readonly ErrorCode[];
}

export function defineRoute<const N extends string, const A extends RouteAuth, P extends TObject, R extends TSchema>(
  definition: RouteDefinition<P, R> & { name: N; auth: A },
): RouteDefinition<P, R> & { name: N; auth: A } {
  const undeclared = pathParamNames(definition.path).filter((name) => !(name in definition.params.properties));
  if (undeclared.length > 0) throw new Error(`route ${definition.name}: the path parameters ${undeclared.join(', ')} are not declared in its params`);
  if (definition.bodyParam !== undefined && !(definition.bodyParam in definition.params.properties)) {
    throw new Error(`route ${definition.name}: its bodyParam ${definition.bodyParam} is not declared in its params`);
  }
  return definition;
}

/** The `:name` segments of a route's path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].flatMap((match) => match[1] ?? []);
}

/** Whether the route reads a JSON body (its verb changes something) rather than the query string. */
export const readsBody = (route: Pick<RouteDefinition, 'verb'>): boolean => route.verb !== 'GET' && route.verb !== 'DELETE';

/** The route's rate class: the one it names, else `read` for GET and `channel` for every change. */
export function routeRateClass(route: Pick<RouteDefinition, 'verb' | 'rateClass'>): RateClass {
  return route.rateClass ?? (route.verb === 'GET' ? 'read' : 'channel');
}

/** Error codes every route can answer, before its own; signed-in routes add NotSignedIn, changes CrossSiteRequest. */
export function routeCommonErrors(route: Pick<RouteDefinition, 'verb' | 'auth'>): ErrorCode[] {
  return [
    'InvalidRequestData',
    'MissingParameter',
    'InvalidParameter',
    ...(route.auth === 'session' ? (['NotSignedIn', 'TooManyRequests'] as const) : []),
    ...(route.verb === 'GET' ? [] : (['CrossSiteRequest'] as const)),
    'RequestTimeout',
    'RequestTooLarge',
    'InternalServerError',
    'ServiceUnavailable',
  ];
}

export type RouteParamsOf<R> = R extends RouteDefinition<infer P, TSchema> ? Static<P> : never;
export type RouteResultOf<R> = R extends RouteDefinition<TObject, infer T> ? Static<T> : never;
