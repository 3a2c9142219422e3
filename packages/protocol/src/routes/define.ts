import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { EndpointDefinition } from '../define.js';
import type { ErrorCode } from '../errors.js';

export type RouteVerb = 'GET' | 'POST' | 'DELETE';

/**
 * An endpoint that keeps a path of its own (signing in and out, deferred replies) rather than
 * `/v1/<name>`: the same declaration as a method, plus its verb and path. Anyone may call it: it takes
 * no credential of the method API (signing in makes one; a deferred reply's token is in its path). The
 * server runs it through one pipeline, the typed clients call it, OpenAPI describes it.
 */
export interface RouteDefinition<P extends TObject = TObject, R extends TSchema = TSchema> extends Omit<EndpointDefinition<P, R>, 'callers' | 'rateClass'> {
  /** `<group>.<route>`, e.g. `session.signIn`: its handler and its OpenAPI operation. */
  name: string;
  verb: RouteVerb;
  /** The URL pattern; each `:name` segment is a path parameter that `params` declares. */
  path: string;
  callers: readonly ['anyone'];
  /**
   * The path parameters, then the query's (GET, DELETE) or the JSON body's fields (POST).
   * With `additionalProperties: false`, a field it does not declare is refused rather than ignored.
   */
  params: P;
}

export function defineRoute<const N extends string, P extends TObject, R extends TSchema>(
  definition: Omit<RouteDefinition<P, R>, 'callers'> & { name: N },
): RouteDefinition<P, R> & { name: N } {
  const undeclared = pathParamNames(definition.path).filter((name) => !(name in definition.params.properties));
  if (undeclared.length > 0) throw new Error(`route ${definition.name}: the path parameters ${undeclared.join(', ')} are not declared in its params`);
  return { ...definition, callers: ['anyone'] };
}

/** The `:name` segments of a route's path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].flatMap((match) => match[1] ?? []);
}

/** Whether the route reads a JSON body (its verb changes something) rather than the query string. */
export const readsBody = (route: Pick<RouteDefinition, 'verb'>): boolean => route.verb === 'POST';

/** Error codes every route can answer, before its own; a change adds CrossSiteRequest. */
export function routeCommonErrors(route: Pick<RouteDefinition, 'verb'>): ErrorCode[] {
  return [
    'InvalidRequestData',
    'MissingParameter',
    'InvalidParameter',
    ...(route.verb === 'GET' ? [] : (['CrossSiteRequest'] as const)),
    'RequestTimeout',
    'RequestTooLarge',
    'InternalServerError',
    'ServiceUnavailable',
  ];
}

export type RouteParamsOf<R> = R extends RouteDefinition<infer P, TSchema> ? Static<P> : never;
export type RouteResultOf<R> = R extends RouteDefinition<TObject, infer T> ? Static<T> : never;
