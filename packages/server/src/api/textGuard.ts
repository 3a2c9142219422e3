import type { FastifyRequest } from 'fastify';
import { invalidParameter, type ApiError } from './errors.js';

/**
 * Text no field can store is refused in any value a request carries (route parameter, query, body),
 * before any route reads it; checked here once rather than in every field's reader, so that no new field
 * can forget it:
 * - U+0000 (NUL): PostgreSQL cannot even compare a text value holding it (a NUL that reached a query was
 *   a 500 there, and a silent mismatch on SQLite);
 * - half of a UTF-16 surrogate pair, alone (JSON's `"\ud83d"`): it is no character, and the store keeps
 *   it as U+FFFD, so what was answered and what is read back would differ (and two passwords differing
 *   only there would open with each other).
 */
export function findUnstorableText(request: FastifyRequest): ApiError | undefined {
  // /v1 checks its parameters in the order docs/errors.md gives (token first): params.ts looks there.
  // Where no route matched, nothing reads the values: the answer is that nothing is served there.
  const route = request.routeOptions.url;
  if (route === undefined || route === '/v1/:method') return undefined;
  for (const source of [request.params, request.query, request.body]) {
    if (typeof source !== 'object' || source === null) continue;
    for (const [name, value] of Object.entries(source)) {
      const flaw = unstorableIn(name, 0) ?? unstorableIn(value);
      if (flaw) return unstorableRefused(printable(name), flaw);
    }
  }
  return undefined;
}

export type TextFlaw = 'nul' | 'loneSurrogate';

export function unstorableRefused(parameter: string, flaw: TextFlaw): ApiError {
  return invalidParameter(
    parameter,
    flaw === 'nul'
      ? `"${parameter}" contains the character U+0000 (NUL), which no parameter accepts.`
      : `"${parameter}" is not well-formed Unicode: it holds half of a UTF-16 surrogate pair on its own (such as \\ud83d), which is no character; send whole characters.`,
  );
}

/**
 * No field is read deeper than this: params.ts refuses values nested more than 32 levels, and the
 * routes read shallow fields only.
 */
const MAX_DEPTH = 40;

/** Half of a surrogate pair with no other half beside it (the regex reads UTF-16 units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A parameter's name as an error names it: not too long, and no NUL or lone surrogate of its own. */
const printable = (name: string): string => name.slice(0, 100).replaceAll('\0', '\\0').replace(new RegExp(LONE_SURROGATE, 'g'), '\ufffd');

/** What no field stores, in a string or anywhere in an object's keys and values; undefined when nothing. */
export function unstorableIn(value: unknown, depth = MAX_DEPTH): TextFlaw | undefined {
  if (typeof value === 'string') {
    if (value.includes('\0')) return 'nul';
    return LONE_SURROGATE.test(value) ? 'loneSurrogate' : undefined;
  }
  if (typeof value !== 'object' || value === null || depth === 0) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const flaw = unstorableIn(key, 0) ?? unstorableIn(item, depth - 1);
    if (flaw) return flaw;
  }
  return undefined;
}
