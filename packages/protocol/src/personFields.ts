/**
 * What the server holds about a person, defined once: the CLI's `user create`, the server's createPerson
 * and signing in all follow these limits, and the server's one check of them (core/personFields.ts)
 * trims and normalises what a schema cannot.
 */
import { Type, type Static } from '@sinclair/typebox';
import { oneOf } from './params.js';

export const maxPersonNameLength = 255;
/** The longest email address (RFC 5321's limit). */
export const maxEmailLength = 254;
export const minPasswordLength = 8;
/** Passwords are hashed with a deliberately slow function: a longer one is refused before it is hashed. */
export const maxPasswordLength = 1024;

/** Something, an `@`, something with a dot: a sieve against typing mistakes, not a proof the address exists. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A UTC offset from -14:59 to +14:59, as users.getInfo reports a person's time zone. */
export const utcOffsetPattern = /^[+-](?:0\d|1[0-4]):[0-5]\d$/;

/** How every method and command that takes a person's time zone describes it. */
export const timeZoneParamDescription = 'an IANA time zone such as Europe/Paris; a UTC offset such as +01:00 is taken as a zone that has it (Etc/GMT-1)';

export const personRoles = ['user', 'admin', 'guest'] as const;

const PersonName = Type.String({ minLength: 1, maxLength: maxPersonNameLength, description: `1 to ${maxPersonNameLength} characters (trimmed)` });

export const Email = Type.String({ maxLength: maxEmailLength, pattern: emailPattern.source, description: 'an email address such as ada@example.com' });

export const NewPersonFields = Type.Object(
  {
    email: Email,
    firstName: PersonName,
    lastName: PersonName,
    password: Type.Optional(Type.String({ minLength: minPasswordLength, maxLength: maxPasswordLength, description: `lets them sign in; at least ${minPasswordLength} characters` })),
    role: Type.Optional(oneOf(personRoles)),
    timezone: Type.Optional(Type.String({ maxLength: 64, description: timeZoneParamDescription })),
  },
  { additionalProperties: false },
);

export type NewPersonFields = Static<typeof NewPersonFields>;
