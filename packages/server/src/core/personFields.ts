import { emailPattern, maxEmailLength, maxPersonNameLength, personRoles } from '@aviary/protocol';
import { invalidParameter, missingParameter } from '../errors.js';
import type { UsersTable } from '../store/schema.js';
import { checkHttpUrl } from './httpUrls.js';
import { checkVisibleName } from './names.js';
import { checkPassword } from './passwordRules.js';
import { checkTimeZone } from './timeZones.js';

/**
 * The one check of a person's fields (their limits are defined in @aviary/protocol's personFields.ts),
 * for every way of making a person: the CLI, the demo seed and tests all come through createPerson,
 * which calls it. A problem is InvalidParameter / MissingParameter naming the field; the CLI words it
 * for its options.
 */

/** A person's fields as a caller gives them: any values, checked here. */
export interface PersonFieldInput {
  email: unknown;
  firstName: unknown;
  lastName: unknown;
  password?: unknown;
  role?: unknown;
  timezone?: unknown;
  profileImage?: unknown;
}

/** A person's fields as checked: names and email trimmed, the email in lower case. */
export interface PersonFields {
  email: string;
  firstName: string;
  lastName: string;
  password?: string;
  role?: UsersTable['role'];
  timezone?: string;
  profileImage?: string;
}

export function checkPersonFields(input: PersonFieldInput): PersonFields {
  return {
    email: checkEmail(input.email),
    firstName: checkName('firstName', input.firstName),
    lastName: checkName('lastName', input.lastName),
    ...(input.password !== undefined ? { password: checkPassword('password', input.password) } : {}),
    ...(input.role !== undefined ? { role: checkRole(input.role) } : {}),
    ...(input.timezone !== undefined ? { timezone: checkTimeZone('timezone', input.timezone) } : {}),
    ...(input.profileImage !== undefined ? { profileImage: checkHttpUrl('profileImage', input.profileImage) } : {}),
  };
}

/** What a person may change of their own profile; each field given is checked as createPerson checks it. */
export interface ProfileChange {
  firstName?: string;
  lastName?: string;
  timezone?: string;
}

export function checkProfileChange(input: { firstName?: unknown; lastName?: unknown; timezone?: unknown }): ProfileChange {
  return {
    ...(input.firstName !== undefined ? { firstName: checkName('firstName', input.firstName) } : {}),
    ...(input.lastName !== undefined ? { lastName: checkName('lastName', input.lastName) } : {}),
    ...(input.timezone !== undefined ? { timezone: checkTimeZone('timezone', input.timezone) } : {}),
  };
}

/** An email address as a person gives it: trimmed, in lower case, or refused naming `email`. */
export function checkEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim() : '';
  if (email === '') throw missingParameter('email');
  if (email.length > maxEmailLength || !emailPattern.test(email)) {
    throw invalidParameter('email', `email must be an email address such as ada@example.com; got ${quote(value)}.`);
  }
  return email.toLowerCase();
}

function checkName(field: string, value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') throw missingParameter(field);
  if (name.length > maxPersonNameLength) throw invalidParameter(field, `${field} must be at most ${maxPersonNameLength} characters; got ${name.length}.`);
  return checkVisibleName(field, name);
}

function checkRole(value: unknown): UsersTable['role'] {
  if (!(personRoles as readonly unknown[]).includes(value)) throw invalidParameter('role', `role must be one of ${personRoles.join(', ')}; got ${quote(value)}.`);
  return value as UsersTable['role'];
}

const quote = (value: unknown): string => JSON.stringify(typeof value === 'string' ? value.slice(0, 200) : value) ?? String(value);
