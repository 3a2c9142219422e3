import type { FastifyRequest } from 'fastify';
import { invalidParameter, type ApiError } from './errors.js';

/**
 * U+0000 in any value a request carries (route parameter, query, body) is refused before any route
 * reads it. No field accepts it, and PostgreSQL cannot even compare a text value holding it: a NUL
 * that reached a query was a 500 there and a silent mismatch on SQLite. Checked here once rather than
 * in every field's reader, so that no new field can forget it.
 */
export function findNul(request: FastifyRequest): ApiError | undefined {
  // /v1 checks its parameters in the order docs/errors.md gives (token first): params.ts looks for NUL there.
  // Where no route matched, nothing reads the values: the answer is that nothing is served there.
  const route = request.routeOptions.url;
  if (route === undefined || route === '/v1/:method') return undefined;
  for (const source of [request.params, request.query, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [name, value] of Object.entries(source)) {
      if (name.includes('\0') || holdsNul(value)) {
        const parameter = name.replaceAll('\0', '\\0').slice(0, 100);
        return nulRefused(parameter);
      }
    }
  }
  return undefined;
}

export const nulRefused = (parameter: string): ApiError =>
  invalidParameter(parameter, `"${parameter}" contains the character U+0000 (NUL), which no parameter accepts.`);

/**
 * No field is read deeper than this: params.ts refuses values nested more than 32 levels, and the
 * client and developer routes read shallow fields only.
 */
const MAX_DEPTH = 40;

export function holdsNul(value: unknown, depth = MAX_DEPTH): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null || depth === 0) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0') || holdsNul(item, depth - 1)) return true;
  }
  return false;
}
