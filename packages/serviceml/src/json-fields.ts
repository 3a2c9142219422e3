/**
 * Readers for JSON-decoded API values. Each names the exact path of what it rejects, because an API
 * error is only useful when it points at the one field to fix. Readers throw `InvalidField` so that the
 * validators read as a list of fields; the exported validators catch it and return a value instead.
 * `null` counts as absent: SDKs commonly serialise unset optional fields as null.
 */

import { checkUrl, describeSchemes, type UrlScheme } from './url.js';

export type FieldResult<T> = { ok: true; value: T } | { ok: false; parameter: string; description: string };

export class InvalidField extends Error {
  constructor(
    readonly parameter: string,
    readonly description: string,
  ) {
    super(`${parameter}: ${description}`);
  }
}

export function catchInvalidField<T>(read: () => T): FieldResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof InvalidField) return { ok: false, parameter: error.parameter, description: error.description };
    throw error;
  }
}

export type JsonObject = Record<string, unknown>;

/** "a number", "an array", "null", "the string \"abc\"" — what was received, for "…; got …" messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;
}

export const isAbsent = (value: unknown): value is null | undefined => value === null || value === undefined;

export function expectObject(value: unknown, path: string, allowedFields: readonly string[]): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidField(path, `${path} must be an object; got ${describeValue(value)}`);
  }
  const unknown = Object.keys(value).filter((key) => !allowedFields.includes(key));
  if (unknown.length > 0) {
    const names = unknown.slice(0, 5).map((key) => JSON.stringify(key)).join(', ');
    const noun = unknown.length === 1 ? 'an unknown field' : 'unknown fields';
    throw new InvalidField(path, `${path} has ${noun} ${names}; allowed fields are ${allowedFields.join(', ')}`);
  }
  return value as JsonObject;
}

export function expectArray(value: unknown, path: string, maxItems: number, itemNoun: string): unknown[] {
  if (!Array.isArray(value)) throw new InvalidField(path, `${path} must be an array; got ${describeValue(value)}`);
  if (value.length > maxItems) {
    throw new InvalidField(path, `${path} has ${value.length} ${itemNoun}s; the limit is ${maxItems}`);
  }
  return value;
}

interface StringRules {
  maxLength: number;
  required?: boolean;
  nonEmpty?: boolean;
}

export function readString(object: JsonObject, key: string, path: string, rules: StringRules): string | undefined {
  const at = `${path}.${key}`;
  const value = object[key];
  if (isAbsent(value)) {
    if (rules.required) throw new InvalidField(at, `${at} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw new InvalidField(at, `${at} must be a string; got ${describeValue(value)}`);
  if ((rules.required || rules.nonEmpty) && value.trim() === '') throw new InvalidField(at, `${at} must not be empty`);
  if (value.length > rules.maxLength) {
    throw new InvalidField(at, `${at} is ${value.length} characters long; the limit is ${rules.maxLength}`);
  }
  return value;
}

const WEB_SCHEMES: readonly UrlScheme[] = ['http', 'https'];

/** An http or https URL, returned trimmed. */
export function readWebUrl(object: JsonObject, key: string, path: string, required = false): string | undefined {
  const at = `${path}.${key}`;
  const value = object[key];
  if (isAbsent(value)) {
    if (required) throw new InvalidField(at, `${at} is required and must be ${describeSchemes(WEB_SCHEMES)}`);
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new InvalidField(at, `${at} must be ${describeSchemes(WEB_SCHEMES)}; got ${describeValue(value)}`);
  }
  const check = checkUrl(value, WEB_SCHEMES);
  if (!check.ok) throw new InvalidField(at, `${at} must be ${describeSchemes(WEB_SCHEMES)}; ${check.reason}`);
  return check.url;
}

/** Booleans also arrive as "true"/"false" from form-encoded SDK calls. */
export function readBoolean(object: JsonObject, key: string, path: string): boolean | undefined {
  const at = `${path}.${key}`;
  const value = object[key];
  if (isAbsent(value)) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new InvalidField(at, `${at} must be true or false; got ${describeValue(value)}`);
}

interface NumberRules {
  /** Smallest allowed value; `exclusive` makes it "greater than". */
  min: number;
  exclusive?: boolean;
  max: number;
  integer?: boolean;
}

const NUMERIC_STRING = /^[0-9]+(\.[0-9]+)?$/;

/** Numbers also arrive as numeric strings ("320"); they are stored as numbers. */
export function readNumber(object: JsonObject, key: string, path: string, rules: NumberRules): number | undefined {
  const at = `${path}.${key}`;
  const raw = object[key];
  if (isAbsent(raw)) return undefined;
  const value = typeof raw === 'string' && NUMERIC_STRING.test(raw) ? Number(raw) : raw;
  const kind = rules.integer ? 'an integer' : 'a number';
  const lower = rules.exclusive ? `greater than ${rules.min}` : `at least ${rules.min}`;
  const expected = `${at} must be ${kind} ${lower} and at most ${rules.max}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InvalidField(at, `${expected}; got ${describeValue(raw)}`);
  if (rules.integer && !Number.isInteger(value)) throw new InvalidField(at, `${expected}; got ${value}`);
  const tooSmall = rules.exclusive ? value <= rules.min : value < rules.min;
  if (tooSmall || value > rules.max) throw new InvalidField(at, `${expected}; got ${value}`);
  return value;
}

/** Drops undefined members so that a normalised value only holds the fields that were given. */
export function definedOnly<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}
