import { maxAllowedOrigins } from '@aviary/protocol';
import { checkUrl, type FieldResult } from '@aviary/serviceml';
import type { AppsTable } from '../store/schema.js';

/**
 * An app's extra allowed origins: besides its listener, configuration and integration URLs, the web
 * origins (`https://host[:port]`) to which its widget and browser tokens may be handed. Stored as a JSON
 * array in `apps.allowed_origins`, each entry in the form `URL.origin` gives (lower-case host, no default
 * port), so that comparing an origin with the list is a plain string comparison.
 */
export { maxAllowedOrigins } from '@aviary/protocol';

/** The stored allowed origins of an app row. */
export function readAllowedOrigins(app: Pick<AppsTable, 'allowed_origins'>): string[] {
  return JSON.parse(app.allowed_origins) as string[];
}

/**
 * The normalised origins, or the first wrong entry (`allowedOrigins[2]`) and what is wrong with it.
 * An origin has no path, query, fragment or credentials; a lone trailing `/` is forgiven.
 */
export function validateAllowedOrigins(value: unknown, at = 'allowedOrigins'): FieldResult<string[]> {
  if (value === null) return { ok: true, value: [] };
  if (!Array.isArray(value)) return { ok: false, parameter: at, description: `${at} must be an array of origins such as "https://app.example"` };
  if (value.length > maxAllowedOrigins) {
    return { ok: false, parameter: at, description: `${at} has ${value.length} entries; the limit is ${maxAllowedOrigins}` };
  }
  const origins: string[] = [];
  for (const [index, item] of value.entries()) {
    const path = `${at}[${index}]`;
    const origin = originOf(item);
    if (typeof origin !== 'string') return { ok: false, parameter: path, description: `${path} ${origin.problem}` };
    if (origins.includes(origin)) return { ok: false, parameter: path, description: `${path} "${origin}" is listed twice` };
    origins.push(origin);
  }
  return { ok: true, value: origins };
}

const example = 'write it like https://app.example or http://localhost:8080';

function originOf(value: unknown): string | { problem: string } {
  if (typeof value !== 'string') return { problem: `must be a string; ${example}` };
  const check = checkUrl(value, ['http', 'https']);
  if (!check.ok || !URL.canParse(check.url)) return { problem: `must be an http or https origin; ${check.ok ? 'it does not parse as a URL' : check.reason}; ${example}` };
  const url = new URL(check.url);
  if (url.username !== '' || url.password !== '') return { problem: `must not carry a user name or password; ${example}` };
  const rest = check.url.slice(check.url.indexOf('//') + 2).replace(/^[^/?#]*/, '');
  if (rest !== '' && rest !== '/') return { problem: `must be an origin only, without a path, query or fragment (got "${rest.slice(0, 40)}" after the host); ${example}` };
  return url.origin;
}
