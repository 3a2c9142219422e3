// Checks of what a person typed; each failure names the option and says what was expected.
import { checkUrl } from '@aviary/serviceml';
import { CliError } from './errors.js';

export function requireText(option: string, value: string, maxLength = 255): string {
  const text = value.trim();
  if (text === '') throw new CliError('InvalidOption', `${option} must not be empty.`);
  if (text.length > maxLength) throw new CliError('InvalidOption', `${option} must be at most ${maxLength} characters; got ${text.length}.`);
  return text;
}

export function requireEmail(value: string): string {
  const email = value.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    throw new CliError('InvalidOption', `--email must be an email address such as ada@example.com; got "${value}".`);
  }
  return email;
}

/** A UTC offset such as +01:00 or -05:30, as users.getInfo reports it. */
export function requireTimezone(value: string): string {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(value);
  if (!match || Number(match[2]) > 14 || Number(match[3]) > 59) {
    throw new CliError('InvalidOption', `--timezone must be a UTC offset such as +01:00 or -05:30; got "${value}".`);
  }
  return value;
}

export function requirePassword(value: string): string {
  if (value.length < 8) throw new CliError('InvalidOption', '--password must be at least 8 characters long.');
  return value;
}

/** The same URL check as the API's (packages/serviceml's checkUrl), worded for a command-line option. */
export function requireHttpUrl(option: string, value: string): string {
  const check = checkUrl(value, ['http', 'https']);
  if (check.ok) return check.url;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trim())?.[1];
  const why = scheme && !/^https?$/i.test(scheme) ? `got the scheme "${scheme.toLowerCase()}:"` : `${check.reason}; got "${value.slice(0, 200)}"`;
  throw new CliError('InvalidOption', `${option} must be an http or https URL; ${why}.`);
}
