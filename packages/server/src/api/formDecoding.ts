/**
 * Decoding of `application/x-www-form-urlencoded` bodies and query strings, used in place of
 * fast-querystring (Fastify's and @fastify/formbody's default). The results are the same — a
 * null-prototype object, `+` read as a space, a repeated name giving an array, a value that is not
 * valid percent-encoding kept as written — but each value is decoded by the engine's
 * decodeURIComponent. fast-querystring decodes character by character into a string of thousands of
 * pieces, which V8 must join before any search of it: for a 2 KiB ServiceML document, decoding it and
 * then validating it cost twice as much as with this (issue #4).
 */

export type DecodedForm = Record<string, string | string[]>;

export function decodeForm(input: string): DecodedForm {
  const out: DecodedForm = Object.create(null);
  let start = 0;
  while (start < input.length) {
    let end = input.indexOf('&', start);
    if (end === -1) end = input.length;
    if (end > start) {
      const equals = input.indexOf('=', start);
      const keyEnd = equals === -1 || equals > end ? end : equals;
      const key = decodeComponent(input.slice(start, keyEnd));
      const value = keyEnd === end ? '' : decodeComponent(input.slice(keyEnd + 1, end));
      const earlier = out[key];
      if (earlier === undefined) out[key] = value;
      else if (typeof earlier === 'string') out[key] = [earlier, value];
      else earlier.push(value);
    }
    start = end + 1;
  }
  return out;
}

function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A stray % or an encoded byte sequence that is not UTF-8: the value is kept as sent, so that the
    // parameter's check quotes what the caller wrote.
    return spaced;
  }
}
