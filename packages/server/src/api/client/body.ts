import { serviceClients, type ServiceClient } from '@aviary/protocol';
import type { FastifyRequest } from 'fastify';
import { UNREADABLE_BODY } from '../dispatcher.js';
import { ApiError, invalidParameter, missingParameter } from '../errors.js';

/** A client API request's fields: the JSON body of a POST, the query of a GET. */
export type Fields = Record<string, unknown>;

export function bodyFields(request: FastifyRequest): Fields {
  const body = request.body as unknown;
  if (body === UNREADABLE_BODY) throw new ApiError('InvalidRequestData', `The content type "${request.headers['content-type']}" is not supported; send application/json.`);
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('InvalidRequestData', 'The body must be a JSON object.');
  return body as Fields;
}

export function queryFields(request: FastifyRequest): Fields {
  return (request.query ?? {}) as Fields;
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null || value === '';

export function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw invalidParameter(name, `${name} must be a string.`);
  return value;
}

export function requiredString(fields: Fields, name: string): string {
  const value = optionalString(fields, name);
  if (value === undefined) throw missingParameter(name);
  return value;
}

export function optionalBoolean(fields: Fields, name: string): boolean | undefined {
  const value = fields[name];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'boolean') throw invalidParameter(name, `${name} must be true or false.`);
  return value;
}

export function requiredChoice<T extends string>(fields: Fields, name: string, choices: readonly T[]): T {
  const value = requiredString(fields, name);
  if (!(choices as readonly string[]).includes(value)) throw invalidParameter(name, `${name} must be one of ${choices.join(', ')}; got ${JSON.stringify(value)}.`);
  return value as T;
}

/** A non-empty array of strings, at most `max` of them. */
export function requiredStringList(fields: Fields, name: string, max: number): string[] {
  const value = fields[name];
  if (isAbsent(value) || (Array.isArray(value) && value.length === 0)) throw missingParameter(name);
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw invalidParameter(name, `${name} must be an array of strings.`);
  if (value.length > max) throw invalidParameter(name, `${name} may name at most ${max}; it names ${value.length}.`);
  return value as string[];
}

/** Which client the person uses: it picks the widget type of open* answers. Desktop unless said. */
export function serviceClient(fields: Fields): ServiceClient {
  return isAbsent(fields.client) ? 'desktop' : requiredChoice(fields, 'client', serviceClients);
}
