import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findMethod } from '../dispatcher.js';
import type { ServerMetrics } from './metrics.js';

/** The label of whatever has no route of its own: an unknown method or path, a verb no route takes. */
export const OTHER_ROUTE = 'other';

const METHOD_ROUTE = '/v1/:method';
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts and times every answered request. Labels come only from what the server registered (route
 * patterns, method names it knows) and from the status it chose, never from the raw URL or verb, so
 * however many made-up paths and methods a client sends, the series stay as few as the routes.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  // A callback hook, not an async one: Fastify would otherwise wait on a promise for every request.
  app.addHook('onResponse', (request, reply, done) => {
    const method = HTTP_METHODS.has(request.method) ? request.method : OTHER_ROUTE;
    metrics.observeRequest(routeLabel(request), method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route === undefined || route === '' || route === '*') return OTHER_ROUTE;
  if (route !== METHOD_ROUTE) return route;
  const name = (request.params as { method?: unknown }).method;
  return typeof name === 'string' && findMethod(name) ? `/v1/${name}` : OTHER_ROUTE;
}
