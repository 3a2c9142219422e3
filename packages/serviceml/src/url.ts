/**
 * The one URL gate for every URL a message can carry (ServiceML href/url, attachment fields, actions).
 * Browsers forgive a lot in URLs (they drop tabs and newlines, fold case, read `\` as `/`), and that
 * forgiveness is how `java&#9;script:` gets through naive checks. So this check is strict instead:
 * no control, format or whitespace characters and no backslash anywhere; only the given schemes.
 */

import { codePointLabel } from './characters.js';

export type UrlScheme = 'http' | 'https' | 'mailto';

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** Controls, format characters (zero-width, bidi), every Unicode space, lone surrogates. */
const INVISIBLE_OR_SPACE = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}]/u;

/** Returns the URL trimmed of surrounding ASCII whitespace when it is acceptable, else why not. */
export function checkUrl(value: string, schemes: readonly UrlScheme[]): UrlCheck {
  const url = value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (url === '') return { ok: false, reason: 'got an empty string' };
  if (url.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `it is ${url.length} characters long; the limit is ${MAX_URL_LENGTH}` };
  }
  const hidden = INVISIBLE_OR_SPACE.exec(url);
  if (hidden) {
    const label = codePointLabel(hidden[0].codePointAt(0) ?? 0);
    return { ok: false, reason: `it contains the character ${label}; percent-encode it (a space is %20)` };
  }
  if (url.includes('\\')) return { ok: false, reason: 'it contains a backslash; use / or percent-encode it as %5C' };
  if (url.startsWith('//')) return { ok: false, reason: 'got a protocol-relative URL (//…); write the scheme, e.g. https://' };
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return { ok: false, reason: 'got a relative URL; write an absolute URL such as https://example.com/' };
  if (!(schemes as readonly string[]).includes(scheme)) return { ok: false, reason: `got a ${scheme}: URL` };
  if (scheme === 'mailto') {
    return url.length > 'mailto:'.length ? { ok: true, url } : { ok: false, reason: 'got a mailto: URL without an address' };
  }
  return checkWebUrl(url, scheme);
}

/** A DNS label: letters and digits (any script, for internationalised names), inner hyphens. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
/** Optional user info, then a DNS name, IPv4 or bracketed IPv6, then an optional port. */
const AUTHORITY = new RegExp(String.raw`^(?:[^@/?#]*@)?(?:${LABEL}(?:\.${LABEL})*\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$`, 'u');

/**
 * http and https need `//` and a host; `https:example.com` is legal for browsers but almost always a
 * typo. Checked by pattern rather than with the URL class so that server and browser agree exactly.
 */
function checkWebUrl(url: string, scheme: string): UrlCheck {
  const rest = url.slice(scheme.length + 1);
  if (!rest.startsWith('//')) return { ok: false, reason: `got "${scheme}:" without "//"; write ${scheme}://host/path` };
  const authority = /^[^/?#]*/.exec(rest.slice(2))![0];
  if (authority === '') return { ok: false, reason: 'it has no host name' };
  if (!AUTHORITY.test(authority)) return { ok: false, reason: `its host ${JSON.stringify(authority.slice(0, 60))} is not a valid host name` };
  return { ok: true, url };
}

/** "an http or https URL" / "an http, https or mailto URL": the expected half of a message. */
export function describeSchemes(schemes: readonly UrlScheme[]): string {
  const names = schemes.slice(0, -1).join(', ');
  return `an ${names === '' ? '' : `${names} or `}${schemes[schemes.length - 1]} URL`;
}
