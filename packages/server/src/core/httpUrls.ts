import { checkUrl } from '@aviary/serviceml';
import { invalidParameter } from '../errors.js';

/**
 * An http or https URL a person gave for `field`, checked as every URL is (ServiceML's checkUrl, which
 * agrees with a browser's parser) and in its normal form; InvalidParameter naming the field otherwise.
 */
export function checkHttpUrl(field: string, value: unknown): string {
  if (typeof value !== 'string') throw invalidParameter(field, `${field} must be an http or https URL, or null to clear it.`);
  const check = checkUrl(value, ['http', 'https']);
  if (check.ok) return check.url;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trim())?.[1];
  const why = scheme && !/^https?$/i.test(scheme) ? `got the scheme "${scheme.toLowerCase()}:"` : check.reason;
  throw invalidParameter(field, `${field} must be an http or https URL; ${why}.`);
}
