import { maxAppDescriptionLength, maxAppNameLength } from '@aviary/protocol';
import { invalidParameter, missingParameter } from '../errors.js';
import { validateAllowedOrigins } from './allowedOrigins.js';
import { checkEventSubscriptions } from './eventSubscriptions.js';
import { checkHttpUrl } from './httpUrls.js';
import { checkVisibleName } from './names.js';
import { validateIntegrations, type Integrations } from './integrations.js';

/**
 * The one check of an app's fields (their limits are defined in @aviary/protocol's appFields.ts), for
 * every way of making or changing an app: the developer methods, the CLI, seeds and tests all come through
 * createApp / updateApp, which call it. A problem is InvalidParameter or MissingParameter naming the
 * field as the developer methods' params name it (`integrations.slashCommands[0].name`); the CLI words it
 * for its options.
 */

/** App fields as a caller gives them: any values, checked here. */
export interface AppFieldInput {
  name?: unknown;
  description?: unknown;
  icon?: unknown;
  listenerUrl?: unknown;
  configurationUrl?: unknown;
  integrations?: unknown;
  allowedOrigins?: unknown;
  flockNaming?: unknown;
  eventSubscriptions?: unknown;
}

/** App fields as checked: the name trimmed, URLs and integrations in their normal form, null for a cleared URL. */
export interface AppFields {
  name?: string;
  description?: string;
  icon?: string | null;
  listenerUrl?: string | null;
  configurationUrl?: string | null;
  integrations?: Integrations;
  allowedOrigins?: string[];
  flockNaming?: boolean;
  /** null: the defaults. */
  eventSubscriptions?: string[] | null;
}

const urlFields = ['icon', 'listenerUrl', 'configurationUrl'] as const;

/**
 * The fields given, checked: for a new app `name` is required; for a change, absent fields stay.
 * `null` clears description, the URLs and the allowed origins; a `null` integrations changes nothing.
 */
export function checkAppFields(input: AppFieldInput, mode: 'create' | 'update'): AppFields {
  const fields: AppFields = {};
  if (mode === 'create' || input.name !== undefined) fields.name = checkName(input.name, mode);
  if (input.description !== undefined) fields.description = checkDescription(input.description);
  for (const field of urlFields) {
    if (input[field] !== undefined) fields[field] = input[field] === null || input[field] === '' ? null : checkHttpUrl(field, input[field]);
  }
  if (input.integrations !== undefined && input.integrations !== null) fields.integrations = checkIntegrations(input.integrations);
  if (input.allowedOrigins !== undefined) {
    const result = validateAllowedOrigins(input.allowedOrigins);
    if (!result.ok) throw invalidParameter(result.parameter, `${result.description}.`);
    fields.allowedOrigins = result.value;
  }
  if (input.flockNaming !== undefined) fields.flockNaming = checkFlockNaming(input.flockNaming);
  if (input.eventSubscriptions !== undefined) fields.eventSubscriptions = checkEventSubscriptions(input.eventSubscriptions);
  return fields;
}

/**
 * A whole integrations object, checked and normalised. A problem names its path after `prefix`: with the
 * default, `integrations.slashCommands[0].action.url`; with '' (a body that is the object itself),
 * `slashCommands[0].action.url`.
 */
export function checkIntegrations(value: unknown, prefix = 'integrations.'): Integrations {
  const result = validateIntegrations(value);
  if (result.ok) return result.value;
  const parameter = result.parameter === 'integrations' ? result.parameter : `${prefix}${result.parameter}`;
  throw invalidParameter(parameter, result.description.replace(result.parameter, parameter));
}

function checkName(value: unknown, mode: 'create' | 'update'): string {
  const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  // A change that gives an empty name asks for one, which an app cannot have; a new app without one lacks it.
  if (empty && mode === 'update') throw invalidParameter('name', 'name must not be empty; leave name out to keep the app’s name.');
  if (empty) throw missingParameter('name');
  if (typeof value !== 'string') throw invalidParameter('name', 'name must be a string: the app name people see.');
  const name = value.trim();
  if (name.length > maxAppNameLength) throw invalidParameter('name', `name is ${name.length} characters long; the limit is ${maxAppNameLength}.`);
  return checkVisibleName('name', name);
}

function checkFlockNaming(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalidParameter('flockNaming', 'flockNaming must be true or false: whether the app also gets Flock’s names.');
  return value;
}

function checkDescription(value: unknown): string {
  if (value === null) return '';
  if (typeof value !== 'string') throw invalidParameter('description', 'description must be a string.');
  if (value.length > maxAppDescriptionLength) {
    throw invalidParameter('description', `description is ${value.length} characters long; the limit is ${maxAppDescriptionLength}.`);
  }
  return value;
}
