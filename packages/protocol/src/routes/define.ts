import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { EndpointDefinition, RateClass } from '../define.js';
import type { ErrorCode } from '../errors.js';

export type RouteVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: `session` needs a signed-in person (the session token as `Authorization: Bearer`
 * or the session cookie); `anyone` needs nothing (signing in and out).
 */
export type RouteCallers = readonly ['session'] | readonly ['anyone'];

/**
 * An endpoint that keeps a path of its own (sessions, deferred replies) rather than
 * `/v1/<name>`: the same declaration as a method, plus its verb and path. The server runs it through one
 * pipeline, the typed clients call it, OpenAPI describes it.
 */
export interface RouteDefinition<P extends TObject = TObject, R extends TSchema = TSchema> extends Omit<EndpointDefinition<P, R>, 'callers' | 'rateClass'> {
  /** `<group>.<route>`, e.g. `session.signIn`: its handler, its rate-limit bucket and its OpenAPI operation. */
  name: string;
  verb: RouteVerb;
  /** The URL pattern; each `:name` segment is a path parameter that `params` declares. */
  path: string;
  callers: RouteCallers;
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
}

export function defineRoute<const N extends string, const C extends RouteCallers, P extends TObject, R extends TSchema>(
  definition: RouteDefinition<P, R> & { name: N; callers: C },
): RouteDefinition<P, R> & { name: N; callers: C } {
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
export function routeCommonErrors(route: Pick<RouteDefinition, 'verb' | 'callers'>): ErrorCode[] {
  return [
    'InvalidRequestData',
    'MissingParameter',
    'InvalidParameter',
    ...(route.callers[0] === 'session' ? (['NotSignedIn', 'TooManyRequests'] as const) : []),
    ...(route.verb === 'GET' ? [] : (['CrossSiteRequest'] as const)),
    'RequestTimeout',
    'RequestTooLarge',
    'InternalServerError',
    'ServiceUnavailable',
  ];
}

export type RouteParamsOf<R> = R extends RouteDefinition<infer P, TSchema> ? Static<P> : never;
export type RouteResultOf<R> = R extends RouteDefinition<TObject, infer T> ? Static<T> : never;
