import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUrl, type UrlScheme } from '../src/index.js';

const allSchemes: UrlScheme[] = ['http', 'https', 'mailto'];

/** Host labels from pieces the URL parser treats specially: numbers, hex, punycode, Unicode digits, hyphens. */
const label = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abxnz09-'), minLength: 0, maxLength: 6 }),
  fc.constantFrom('xn--', 'XN--a', 'xn--zca', '0x', '0x7f', '09', '255', '256', '4294967295', '1e', 'ß', '١٢٣', '１２３', 'Ａ', '%41', 'a_b', '-', ''),
  fc.integer({ min: 0, max: 99_999 }).map(String),
);
const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
  fc.array(fc.string({ unit: fc.constantFrom(...'0123456789abcdef:.'), maxLength: 12 }), { maxLength: 1 }).map((parts) => `[${parts.join('')}]`),
);
const port = fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 7 }), { nil: undefined });
const userInfo = fc.constantFrom('', '', 'user@', 'user:pw@', ':@', '@@');
const scheme = fc.constantFrom('http', 'https', 'HTTP', 'HtTpS', 'mailto', 'ftp', 'javascript');
const separator = fc.constantFrom('://', '://', ':', ':/', ':///');
const path = fc.string({ unit: fc.constantFrom(...'/?#azAZ09%-._~!$&()*+,;=:@[]^`{|}"\'<>'), maxLength: 12 });

/** URL-ish strings: mostly well-formed pieces put together, with the odd part out of place. */
const urlish = fc.oneof(
  fc.tuple(scheme, separator, userInfo, host, port, path).map(([s, sep, user, h, p, rest]) => `${s}${sep}${user}${h}${p === undefined ? '' : `:${p}`}${rest}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true, validSchemes: ['http', 'https'] }),
  fc.string({ maxLength: 40 }),
);

describe('checkUrl agrees with the WHATWG URL parser', () => {
  it('accepts only what `new URL` parses, with the same scheme (property)', () => {
    fc.assert(
      fc.property(urlish, (value) => {
        const check = checkUrl(value, allSchemes);
        if (!check.ok) return;
        const parsed = new URL(check.url);
        expect(allSchemes.map((s) => `${s}:`)).toContain(parsed.protocol);
        expect(parsed.protocol).toBe(`${check.url.slice(0, check.url.indexOf(':')).toLowerCase()}:`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses what the parser refuses, saying why', () => {
    const refused: Array<[string, RegExp]> = [
      ['http://a.com:99999/', /port 99999 is above 65535/],
      ['https://example.com:65536', /port 65536/],
      ['http://a.123/', /cannot parse/],
      ['http://999.1.1.1/', /cannot parse/],
      ['http://09.1.1.1/', /cannot parse/],
      ['http://xn--a.com/', /cannot parse/],
      ['http://a.b.c.d.1/', /cannot parse/],
      ['http://[::1:]/', /cannot parse/],
    ];
    for (const [url, reason] of refused) {
      const check = checkUrl(url, ['http', 'https']);
      expect(check, url).toMatchObject({ ok: false });
      if (!check.ok) expect(check.reason, url).toMatch(reason);
    }
  });

  it('still accepts the URLs apps use, IP literals and ports included', () => {
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:8080/events',
      'http://[::1]:3000/x?y=1#z',
      'https://a.example:65535/',
      'https://xn--zca.de/',
      'https://bücher.example/',
      'http://10.0.0.1/',
      'https://example.com./path',
      'mailto:ada@example.com',
    ]) {
      expect(checkUrl(url, allSchemes), url).toEqual({ ok: true, url });
    }
  });
});
