import { pathParamNames, readsBody, type RouteDefinition } from '@aviary/protocol';
import type { FastifyRequest } from 'fastify';
import { UNREADABLE_BODY, unsupportedBody } from './dispatcher.js';
import { ApiError } from './errors.js';
import { decodeParams, refuseUndeclaredFields, type RawParams } from './params.js';

/** What a route's request carries: its path parameters, and the query's or the JSON body's fields. */
export interface RouteInput {
  path: Record<string, string>;
  fields: RawParams;
}

/**
 * The raw input of a route: the query of a GET or DELETE, else the JSON body's fields. An absent body is
 * no fields.
 */
export function readRouteInput(route: RouteDefinition, request: FastifyRequest): RouteInput {
  const path = (request.params ?? {}) as Record<string, string>;
  if (!readsBody(route)) return { path, fields: (request.query ?? {}) as RawParams };
  const body = request.body as unknown;
  if (body === UNREADABLE_BODY || typeof body === 'string') throw unsupportedBody(request, 'application/json');
  if (body === undefined || body === null) return { path, fields: {} };
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('InvalidRequestData', 'The body must be a JSON object.');
  return { path, fields: body as RawParams };
}

/**
 * The route's typed parameters: MissingParameter / InvalidParameter as /v1 answers them. A route whose
 * params refuse additional properties refuses a field it does not declare (a misspelt one is never
 * silently ignored); other routes ignore such fields. The path's own parameters always win.
 */
export function decodeRouteParams(route: RouteDefinition, input: RouteInput): Record<string, unknown> {
  if (route.params.additionalProperties === false) {
    const inPath = new Set(pathParamNames(route.path));
    const declared = Object.keys(route.params.properties).filter((name) => !inPath.has(name));
    refuseUndeclaredFields(declared, input.fields, `${route.verb} ${route.path}`);
  }
  return decodeParams(route.params, { ...input.fields, ...input.path }, { json: readsBody(route) });
}
