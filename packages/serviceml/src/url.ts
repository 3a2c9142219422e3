/**
 * The one URL gate for every URL a message can carry (ServiceML href/url, attachment fields, actions),
 * every URL an app registers, and every other URL a person or app gives (a channel's profileImage).
 * Browsers forgive a lot in URLs (they drop tabs and newlines, fold case, read `\` as `/`), and that
 * forgiveness is how `java&#9;script:` gets through naive checks. So this check is strict instead:
 * no control, format or whitespace characters and no backslash anywhere; only the given schemes. And
 * whatever it accepts, the WHATWG URL parser (browsers', and Node's `URL`) parses, with the same scheme:
 * a URL the server stores must never be one that code reading it later cannot parse.
 */

import { codePointLabel, isAsciiLetter, isDigit } from './characters.js';

export type UrlScheme = 'http' | 'https' | 'mailto';

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;

/** Controls, format characters (zero-width, bidi), every Unicode space, lone surrogates. */
const INVISIBLE_OR_SPACE = /[\p{Cc}\p{Cf}\p{Z}\p{Cs}]/u;

/**
 * An ASCII DNS label: what nearly every host name is made of. Not one beginning with `xn--`: that is
 * punycode, which the URL parser decodes and refuses when it is not valid.
 */
const ASCII_LABEL = String.raw`(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?`;
/**
 * The last label begins with a letter: the URL parser reads a host whose last label is a number (`a.123`,
 * `1.2.3.4`, `0x7f`) as an IPv4 address, and refuses it when that fails. Such hosts get the full check.
 */
const LAST_ASCII_LABEL = String.raw`(?![Xx][Nn]--)[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?`;
/** A port the URL parser accepts: 0 to 65535, at most five digits. */
const PORT = String.raw`(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})`;
/** ASCII host name with an optional port. */
const HOST_AND_PORT = String.raw`(?:${ASCII_LABEL}\.)*${LAST_ASCII_LABEL}\.?(?::${PORT})?`;
/**
 * The usual link: lowercase http or https, an ASCII host name with an optional port, then printable
 * ASCII other than `\`. Each URL it matches passes every check below unchanged (nothing to trim,
 * nothing invisible, a valid host), so one match settles the common case; checkUrl runs for every
 * link and action of every ServiceML document. Anything else gets the full check, which also says why.
 */
const PLAIN_WEB_URL = new RegExp(String.raw`^https?://${HOST_AND_PORT}(?:[/?#][!-\[\]-~]*)?$`);

/**
 * PLAIN_WEB_URL as written in a double-quoted ServiceML attribute, for the document pattern of
 * quick-accept.ts: no `"` or `<`, and `&` only as `&amp;`. At most MAX_URL_LENGTH characters as
 * written, so at most that many decoded; after `&amp;` is decoded, what it matches matches
 * PLAIN_WEB_URL, so checkUrl accepts it unchanged for either of http and https.
 */
export const PLAIN_WEB_URL_IN_MARKUP = String.raw`(?=[^"]{1,${MAX_URL_LENGTH}}")https?://${HOST_AND_PORT}(?:[/?#](?:[!#-%'-;=-\[\]-~]|&amp;)*)?`;

/** Returns the URL trimmed of surrounding ASCII whitespace when it is acceptable, else why not. */
export function checkUrl(value: string, schemes: readonly UrlScheme[]): UrlCheck {
  if (value.length <= MAX_URL_LENGTH && PLAIN_WEB_URL.test(value)) {
    const scheme = value.charCodeAt(4) === 0x73 /* s */ ? 'https' : 'http';
    if ((schemes as readonly string[]).includes(scheme)) return { ok: true, url: value };
  }
  const url = trimAsciiWhitespace(value);
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
  const scheme = schemeOf(url);
  if (scheme === undefined) return { ok: false, reason: 'got a relative URL; write an absolute URL such as https://example.com/' };
  if (!(schemes as readonly string[]).includes(scheme)) return { ok: false, reason: `got a ${scheme}: URL` };
  if (scheme === 'mailto') {
    return url.length > 'mailto:'.length ? parsesAs(url, scheme) : { ok: false, reason: 'got a mailto: URL without an address' };
  }
  const web = checkWebUrl(url, scheme);
  return web.ok ? parsesAs(url, scheme) : web;
}

/** The final word: the WHATWG URL parser must read the URL, with the scheme the check saw. */
function parsesAs(url: string, scheme: string): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'a browser cannot parse it as a URL; check the host name' };
  }
  if (parsed.protocol !== `${scheme}:`) return { ok: false, reason: `a browser reads it as a ${parsed.protocol} URL` };
  return { ok: true, url };
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
  const hostStart = scheme.length + 3;
  if (!url.startsWith('//', hostStart - 2)) return { ok: false, reason: `got "${scheme}:" without "//"; write ${scheme}://host/path` };
  let hostEnd = hostStart;
  while (hostEnd < url.length && !isAuthorityEnd(url.charCodeAt(hostEnd))) hostEnd++;
  const authority = url.slice(hostStart, hostEnd);
  if (authority === '') return { ok: false, reason: 'it has no host name' };
  if (!AUTHORITY.test(authority)) return { ok: false, reason: `its host ${JSON.stringify(authority.slice(0, 60))} is not a valid host name` };
  const port = /:([0-9]+)$/.exec(authority)?.[1];
  if (port !== undefined && Number(port) > 65535) return { ok: false, reason: `its port ${port} is above 65535` };
  return { ok: true, url };
}

// The checks below are written out rather than as regular expressions: checkUrl runs for every link
// and action of every ServiceML document, and these are cheaper than a match and its result array.

/** `/`, `?` and `#` end the authority (user info, host and port) of a URL. */
const isAuthorityEnd = (unit: number): boolean => unit === 0x2f || unit === 0x3f || unit === 0x23;

/** What HTML's URL parser strips from both ends: tab, LF, FF, CR and space. */
const isTrimmedSpace = (unit: number): boolean => unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d;

function trimAsciiWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isTrimmedSpace(value.charCodeAt(start))) start++;
  while (end > start && isTrimmedSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/** Letters, digits, `+`, `.` and `-`. */
const isSchemeChar = (unit: number): boolean => isAsciiLetter(unit) || isDigit(unit) || unit === 0x2b || unit === 0x2e || unit === 0x2d;

/** The scheme of an absolute URL, `[A-Za-z][A-Za-z0-9+.-]*` before the first `:`, lowercased. */
function schemeOf(url: string): string | undefined {
  if (!isAsciiLetter(url.charCodeAt(0))) return undefined;
  let end = 1;
  while (isSchemeChar(url.charCodeAt(end))) end++;
  return url.charCodeAt(end) === 0x3a ? url.slice(0, end).toLowerCase() : undefined;
}

/** "an http or https URL" / "an http, https or mailto URL": the expected half of a message. */
export function describeSchemes(schemes: readonly UrlScheme[]): string {
  const names = schemes.slice(0, -1).join(', ');
  return `an ${names === '' ? '' : `${names} or `}${schemes[schemes.length - 1]} URL`;
}
