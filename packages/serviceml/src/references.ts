/**
 * Character references in ServiceML text and attribute values: `&name;` for the five XML entities,
 * `&#digits;` and `&#xhexdigits;`. Anything else that starts with `&` is a syntax error naming what to
 * write instead.
 */

import { abbreviate, codePointLabel, isAsciiLetter, isDigit, isHexDigit, isXmlChar } from './characters.js';
import { failAt } from './syntax-error.js';

const HASH = 0x23;
const SEMICOLON = 0x3b;
const LOWER_X = 0x78;

/**
 * Decodes the reference at `start` (an `&`). An accepted reference ends at the first `;` after
 * `start`; anything else throws ServiceMLSyntaxError at `start`.
 */
export function decodeReference(source: string, start: number): string {
  const first = source.charCodeAt(start + 1);
  if (isAsciiLetter(first)) {
    let end = start + 2;
    while (isAsciiLetter(source.charCodeAt(end)) || isDigit(source.charCodeAt(end))) end++;
    if (source.charCodeAt(end) === SEMICOLON) return decodeNamedReference(source, start, end);
  } else if (first === HASH) {
    const hex = source.charCodeAt(start + 2) === LOWER_X;
    const digitsStart = start + (hex ? 3 : 2);
    let end = digitsStart;
    while (hex ? isHexDigit(source.charCodeAt(end)) : isDigit(source.charCodeAt(end))) end++;
    if (end > digitsStart && source.charCodeAt(end) === SEMICOLON) return decodeNumericReference(source, start, digitsStart, end, hex ? 16 : 10);
  }
  if (source.startsWith('&#X', start)) failAt(start, 'write hexadecimal character references with a lowercase x, as in &#x6A;');
  if (first === HASH) failAt(start, 'a character reference looks like &#106; or &#x6A; and ends with ;');
  return failAt(start, 'a raw & must be written as &amp;');
}

/** `&name;`, where `semicolon` is the index of the `;`. */
function decodeNamedReference(source: string, start: number, semicolon: number): string {
  const name = source.slice(start + 1, semicolon);
  const replacement = entityValue(name);
  if (replacement === undefined) {
    failAt(start, `&${abbreviate(name)}; is not a ServiceML entity; use &amp; &lt; &gt; &quot; &apos; or a numeric reference such as &#160;`);
  }
  return replacement;
}

/** The five XML entities; any other name is rejected. */
function entityValue(name: string): string | undefined {
  switch (name) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
    default:
      return undefined;
  }
}

/** `&#…;` with at least one digit between `digitsStart` and the `;` at `semicolon`. */
function decodeNumericReference(source: string, start: number, digitsStart: number, semicolon: number, radix: number): string {
  let firstSignificant = digitsStart;
  while (firstSignificant < semicolon - 1 && source.charCodeAt(firstSignificant) === 0x30) firstSignificant++;
  // More than 7 significant digits is beyond U+10FFFF in either radix; parseInt would lose precision.
  const codePoint = semicolon - firstSignificant > 7 ? Infinity : parseInt(source.slice(firstSignificant, semicolon), radix);
  if (!isXmlChar(codePoint)) rejectReferencedCodePoint(codePoint, start, abbreviate(source.slice(start, semicolon + 1), 20));
  return String.fromCodePoint(codePoint);
}

function rejectReferencedCodePoint(codePoint: number, start: number, written: string): never {
  if (codePoint === 0) failAt(start, `${written} does not name a character (code point 0 is not allowed)`);
  if (codePoint > 0x10ffff) failAt(start, `${written} is beyond U+10FFFF, the last Unicode code point`);
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
    failAt(start, `${written} names a surrogate (${codePointLabel(codePoint)}), which is not a character`);
  }
  return failAt(start, `${written} names ${codePointLabel(codePoint)}, which is not allowed in ServiceML`);
}
