import { checkUrl } from '@aviary/serviceml';
import type { FastifyRequest } from 'fastify';
import { validateAllowedOrigins } from '../../core/allowedOrigins.js';
import type { AppChanges } from '../../core/commands/apps.js';
import { validateIntegrations, type Integrations } from '../../core/integrations.js';
import { UNREADABLE_BODY } from '../dispatcher.js';
import { ApiError, invalidParameter, missingParameter } from '../errors.js';

const appFields = ['name', 'description', 'icon', 'listenerUrl', 'configurationUrl', 'integrations', 'allowedOrigins'] as const;
const urlFields = ['icon', 'listenerUrl', 'configurationUrl'] as const;
const maxNameLength = 80;
const maxDescriptionLength = 1000;

/** The JSON object a developer API request sent; an absent body is an empty object. */
export function jsonObjectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body as unknown;
  if (body === undefined || body === null) return {};
  if (body === UNREADABLE_BODY) {
    throw new ApiError('InvalidRequestData', `The content type "${request.headers['content-type']}" is not supported; send application/json.`);
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('InvalidRequestData', 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}

/**
 * The app fields of a create (`name` required) or an update (every field optional). `null` clears an
 * optional field; unknown fields are refused, so that a misspelt one is not silently ignored.
 */
export function readAppFields(body: Record<string, unknown>, mode: 'create' | 'update'): AppChanges {
  const unknown = Object.keys(body).find((key) => !(appFields as readonly string[]).includes(key));
  if (unknown !== undefined) throw invalidParameter(unknown, `"${unknown}" is not an app field; the fields are ${appFields.join(', ')}.`);
  const changes: AppChanges = {};
  if (mode === 'create' || body.name !== undefined) changes.name = readName(body.name);
  if (body.description !== undefined) changes.description = readDescription(body.description);
  for (const field of urlFields) {
    if (body[field] !== undefined) changes[field] = readOptionalUrl(field, body[field]);
  }
  if (body.integrations !== undefined && body.integrations !== null) changes.integrations = requireValidIntegrations(body.integrations);
  if (body.allowedOrigins !== undefined) changes.allowedOrigins = readAllowedOriginsField(body.allowedOrigins);
  return changes;
}

function readName(value: unknown): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) throw missingParameter('name');
  if (typeof value !== 'string') throw invalidParameter('name', 'name must be a string: the app name people see.');
  const name = value.trim();
  if (name.length > maxNameLength) throw invalidParameter('name', `name is ${name.length} characters long; the limit is ${maxNameLength}.`);
  return name;
}

function readDescription(value: unknown): string {
  if (value === null) return '';
  if (typeof value !== 'string') throw invalidParameter('description', 'description must be a string.');
  if (value.length > maxDescriptionLength) {
    throw invalidParameter('description', `description is ${value.length} characters long; the limit is ${maxDescriptionLength}.`);
  }
  return value;
}

/** `null` or `[]` clears the list. */
function readAllowedOriginsField(value: unknown): string[] {
  const result = validateAllowedOrigins(value);
  if (!result.ok) throw invalidParameter(result.parameter, `${result.description}.`);
  return result.value;
}

function readOptionalUrl(field: string, value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') throw invalidParameter(field, `${field} must be an http or https URL, or null to clear it.`);
  const check = checkUrl(value, ['http', 'https']);
  if (!check.ok) throw invalidParameter(field, `${field} must be an http or https URL; ${check.reason}.`);
  return check.url;
}

/**
 * The validated integrations, or InvalidParameter naming the field's path after `prefix`: with the
 * default prefix `integrations.slashCommands[0].action.url`, with '' (a body that is the object itself)
 * `slashCommands[0].action.url`.
 */
export function requireValidIntegrations(value: unknown, prefix = 'integrations.'): Integrations {
  const result = validateIntegrations(value);
  if (result.ok) return result.value;
  const parameter = result.parameter === 'integrations' ? result.parameter : `${prefix}${result.parameter}`;
  throw invalidParameter(parameter, result.description.replace(result.parameter, parameter));
}
