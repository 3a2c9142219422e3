/**
 * validateServiceML answers most documents with one pattern match (src/quick-accept.ts). These tests
 * hold the pattern to its promise: everything it matches is valid, the documents it is written for do
 * match (or the fast path would silently stop being taken), and a long near miss is rejected (how fast: npm run bench).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longNearMisses, typicalDocument } from '../bench/validate-render.js';
import { parseServiceML, serializeServiceML, validateServiceML } from '../src/index.js';
import { isFlatValidDocument } from '../src/quick-accept.js';
import { flatServiceMLTreeArbitrary } from './arbitraries.js';

const doc = (body: string) => `<serviceml>${body}</serviceml>`;
const longUrl = (length: number) => `https://example.com/${'p'.repeat(length - 'https://example.com/'.length)}`;

describe('the flat-document pattern of validateServiceML', () => {
  it('matches the flat documents apps send, each of which the parser accepts', () => {
    const flat = [
      typicalDocument(),
      doc(''),
      ` \r\n${doc('plain text &amp; &lt;tags&gt; &quot;quoted&quot; &apos;s')}\n `,
      doc('<b>bold</b> <strong>strong</strong> <i>i</i> <em>em</em> <u>u</u><br/>'),
      doc('emoji 😀 &#x1F600; &#160; &#65; and a raw > sign'),
      doc('<a href="http://localhost:8080/a?b=1&amp;c=2#top">link<br/>with a break</a>'),
      doc('<b><i>nested</i> formatting</b> and <a href="https://example.com/"><b>a bold</b> <em>link</em></a>'),
      doc('<action id="x" type="sendEvent"><strong>Re-run</strong><br/></action>'),
      doc(`<a href="${longUrl(2048)}">the longest URL allowed</a>`),
      doc('<user userId="u:abcdefghijklmnop">Ada &amp; co</user>'),
      doc('<action id="a.b:c-d_1" type="sendToApp">legacy type name</action>'),
      doc('<action id="open" type="openBrowser" url="https://example.com/x" desktopType="modal" mobileType="modal" sendContext="true">Open</action>'),
    ];
    for (const source of flat) {
      expect(isFlatValidDocument(source), source).toBe(true);
      expect(parseServiceML(source).ok, source).toBe(true);
    }
  });

  it('matches every serialized flat tree', () => {
    fc.assert(
      fc.property(flatServiceMLTreeArbitrary, (tree) => {
        const source = serializeServiceML(tree);
        expect(isFlatValidDocument(source)).toBe(true);
        expect(parseServiceML(source)).toEqual({ ok: true, ast: tree });
      }),
      { numRuns: 1_000 },
    );
  });

  it('matches no near miss: each is rejected, with the problem the parser finds', () => {
    const nearMisses = [
      doc('&#0; is not a character'),
      doc('&#xD800; is a surrogate'),
      doc('&#1114112; is beyond Unicode'),
      doc('a NUL \u0000 in the text'),
      doc('a lone surrogate \uD800 in the text'),
      doc('&nbsp; is not an XML entity'),
      doc(`<a href="${longUrl(2049)}">one character too long</a>`),
      doc('<a href="javascript:alert(1)">x</a>'),
      doc('<a href="https://exa_mple.com/">bad host</a>'),
      doc('<a href="https://-example.com/">bad host</a>'),
      doc(`<action id="${'x'.repeat(256)}" type="sendEvent">id too long</action>`),
      doc('<action id="w" type="openWidget">no url</action>'),
      doc('<action id="w" type="sendEvent" desktopType="popup">x</action>'),
      doc('<action id="w" type="sendEvent" sendContext="yes">x</action>'),
      doc('<user userId="u:ABCDEFGHIJKLMNOP">Ada</user>'),
      doc('<user userId="u:abcdefghijklmnop">Ada<br/></user>'),
      doc('<b>crossed</i>'),
      doc('<b><i>crossed</b></i>'),
      doc('<a href="https://example.com/"><b><a href="https://example.com/">nested link</a></b></a>'),
      doc('<user userId="u:abcdefghijklmnop"><b>Ada</b></user>'),
      doc('<b>unclosed'),
      `${doc('')}text after the root`,
      `text before the root${doc('')}`,
      `${doc('')}${doc('')}`,
    ];
    for (const source of nearMisses) {
      expect(isFlatValidDocument(source), source).toBe(false);
      const parsed = parseServiceML(source);
      expect(parsed.ok, source).toBe(false);
      expect(validateServiceML(source)).toEqual(parsed);
    }
  });

  it('leaves valid documents of other shapes to the parser, which accepts them', () => {
    const otherShapes = [
      doc('<b><i><u>nested three deep</u></i></b>'),
      doc('<b><a href="https://example.com/">link inside formatting</a></b>'),
      doc('<a href="mailto:ada@example.com">mail</a>'),
      doc("<a href='https://example.com/'>single quotes</a>"),
      doc('<a  href="https://example.com/" >spaces</a>'),
      doc('<action type="sendEvent" id="x">attributes in another order</action>'),
      doc('<b/><br />'),
      doc('<a href="https://bücher.example/">an internationalised host</a>'),
    ];
    for (const source of otherShapes) {
      expect(isFlatValidDocument(source), source).toBe(false);
      expect(validateServiceML(source), source).toEqual({ ok: true });
    }
  });

  // How fast a near miss is given up on is measured by `npm run bench` (benchNearMisses), not asserted here.
  it('rejects a long near miss', () => {
    for (const source of longNearMisses()) expect(isFlatValidDocument(source)).toBe(false);
  });
});
