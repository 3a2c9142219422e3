import { describe, expect, it } from 'vitest';
import { describeProblems, parseServiceML, validateServiceML, type ServiceMLNode, type ServiceMLText } from '../src/index.js';

const USER = 'u:abcdefghijklmnop';
const text = (value: string): ServiceMLText => ({ type: 'text', value });
const nested = (depth: number): string => `<serviceml>${'<b>'.repeat(depth - 1)}x${'</b>'.repeat(depth - 1)}</serviceml>`;
/** A document of `bytes` UTF-8 bytes, filled with a 1-byte or 2-byte character. */
const sized = (bytes: number, filler: 'x' | 'é' = 'x'): string => {
  const frame = '<serviceml></serviceml>';
  return `<serviceml>${filler.repeat((bytes - frame.length) / (filler === 'x' ? 1 : 2))}</serviceml>`;
};

describe('valid ServiceML documents', () => {
  const valid: [string, string, ServiceMLNode[] | undefined][] = [
    ['an empty root, self-closed', '<serviceml/>', []],
    ['an empty root', '<serviceml></serviceml>', []],
    ['whitespace around the root', '  \n<serviceml>hi</serviceml>\n\t', [text('hi')]],
    [
      'every formatting element',
      '<serviceml><b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u></serviceml>',
      (['b', 'strong', 'i', 'em', 'u'] as const).map((name) => ({ type: 'element', name, attributes: {}, children: [text(name[0]!)] })),
    ],
    [
      'three spellings of an empty br',
      '<serviceml>a<br/>b<br />c<br></br></serviceml>',
      [text('a'), { type: 'element', name: 'br', attributes: {}, children: [] }, text('b'), { type: 'element', name: 'br', attributes: {}, children: [] }, text('c'), { type: 'element', name: 'br', attributes: {}, children: [] }],
    ],
    [
      'a link whose href holds an escaped &',
      '<serviceml><a href="https://example.com/p?q=1&amp;r=2#f">x</a></serviceml>',
      [{ type: 'element', name: 'a', attributes: { href: 'https://example.com/p?q=1&r=2#f' }, children: [text('x')] }],
    ],
    ['a link with an upper-case scheme', '<serviceml><a href="HTTP://EXAMPLE.COM">x</a></serviceml>', undefined],
    [
      'a mailto link',
      '<serviceml><a href="mailto:someone@example.com">mail</a></serviceml>',
      [{ type: 'element', name: 'a', attributes: { href: 'mailto:someone@example.com' }, children: [text('mail')] }],
    ],
    [
      'an href with surrounding spaces, stored trimmed',
      '<serviceml><a href="  https://example.com/  ">x</a></serviceml>',
      [{ type: 'element', name: 'a', attributes: { href: 'https://example.com/' }, children: [text('x')] }],
    ],
    ['a link to an internationalised host', '<serviceml><a href="https://bücher.example/">x</a></serviceml>', undefined],
    ['a link to an IPv6 host with a port', '<serviceml><a href="http://[::1]:8080/x">x</a></serviceml>', undefined],
    ['a link in single quotes', "<serviceml><a href='https://example.com'>x</a></serviceml>", undefined],
    [
      'a mention with a fallback name',
      `<serviceml><user userId="${USER}">Bob</user></serviceml>`,
      [{ type: 'element', name: 'user', attributes: { userId: USER }, children: [text('Bob')] }],
    ],
    ['an empty mention', `<serviceml><user userId="${USER}"/></serviceml>`, [{ type: 'element', name: 'user', attributes: { userId: USER }, children: [] }]],
    [
      'a sendEvent action',
      '<serviceml><action id="approve" type="sendEvent">Approve</action></serviceml>',
      [{ type: 'element', name: 'action', attributes: { id: 'approve', type: 'sendEvent' }, children: [text('Approve')] }],
    ],
    [
      'an action type alias, normalised',
      '<serviceml><action id="a" type="sendToAppService">x</action><action id="b" type="sendToApp">y</action></serviceml>',
      [
        { type: 'element', name: 'action', attributes: { id: 'a', type: 'sendEvent' }, children: [text('x')] },
        { type: 'element', name: 'action', attributes: { id: 'b', type: 'sendEvent' }, children: [text('y')] },
      ],
    ],
    [
      'an openWidget action with every attribute',
      '<serviceml><action id="w" type="openWidget" url="https://app.example/w" desktopType="sidebar" mobileType="modal" sendContext="false">x</action></serviceml>',
      [
        {
          type: 'element',
          name: 'action',
          attributes: { id: 'w', type: 'openWidget', url: 'https://app.example/w', desktopType: 'sidebar', mobileType: 'modal', sendContext: false },
          children: [text('x')],
        },
      ],
    ],
    [
      'the five XML entities and numeric references',
      '<serviceml>&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x1F600;&#0000067;</serviceml>',
      [text('&<>"\'AB😀C')],
    ],
    ['a raw > in text', '<serviceml>a > b</serviceml>', [text('a > b')]],
    ['CRLF line breaks kept in text', '<serviceml>\r\n  two\r\n</serviceml>', [text('\r\n  two\r\n')]],
    ['whitespace inside tags', '<serviceml ><b\n>x</b ></serviceml >', [{ type: 'element', name: 'b', attributes: {}, children: [text('x')] }]],
    ['formatting and a mention inside an action', `<serviceml><action id="a" type="sendEvent"><b>Go</b> <user userId="${USER}">x</user></action></serviceml>`, undefined],
    ['a mention inside a link', `<serviceml><a href="https://x.org"><user userId="${USER}">x</user></a></serviceml>`, undefined],
    ['nesting exactly 32 deep', nested(32), undefined],
    ['exactly 16,384 bytes', sized(16_384), undefined],
  ];

  it.each(valid)('%s', (_name, source, children) => {
    const result = parseServiceML(source);
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(validateServiceML(source)).toEqual({ ok: true });
    if (result.ok && children !== undefined) expect(result.ast).toEqual({ type: 'root', children });
  });
});

describe('invalid ServiceML documents', () => {
  // [source, line, column, message fragment]
  const invalid: [string, number, number, string][] = [
    ['<serviceml><blink>x</blink></serviceml>', 1, 12, '<blink> is not a ServiceML element; use a, b, strong, i, em, u, br, user or action'],
    ['<serviceml>\n  <b>ok</b>\n  <blink>x</blink>\n</serviceml>', 3, 3, '<blink> is not a ServiceML element'],
    ['<serviceml>\r\n<b>x</b>\r\n<blink/>\r\n</serviceml>', 3, 1, '<blink> is not a ServiceML element'],
    ['<serviceml>😀<blink/></serviceml>', 1, 13, '<blink> is not a ServiceML element'],
    ['<serviceml><B>x</B></serviceml>', 1, 12, 'element names are lowercase: write <b>'],
    ['<b>x</b>', 1, 1, 'the document must start with <serviceml>; found <b>'],
    ['', 1, 1, 'the document is empty'],
    ['  \n  ', 1, 1, 'the document is empty'],
    ['<serviceml>x</serviceml><serviceml>y</serviceml>', 1, 25, 'a document has one <serviceml> root'],
    ['hello<serviceml/>', 1, 1, 'text before <serviceml>'],
    ['<serviceml/>\n  bye', 2, 3, 'text after </serviceml>'],
    ['<serviceml><b>x</serviceml>', 1, 16, '<b> (opened at line 1:12) is still open; close tags in reverse order'],
    ['<serviceml><b><i>x</b></i></serviceml>', 1, 19, '</b> closes <b> from line 1:12, but <i> (opened at line 1:15) is still open'],
    ['<serviceml>x</b></serviceml>', 1, 13, '</b> has no matching start tag'],
    ['<serviceml><b>x', 1, 12, '<b> is never closed; add </b>'],
    ['<serviceml><a href="https://x.org">x</a>', 1, 1, '<serviceml> is never closed'],
    ['<serviceml>a<br>b</serviceml>', 1, 13, '<br> is never closed; write <br/>'],
    ['<serviceml><br>x</br></serviceml>', 1, 16, '<br/> must be empty'],
    ['<serviceml><a>x</a></serviceml>', 1, 12, '<a> needs a href attribute'],
    ['<serviceml><a href="ftp://x.org/">x</a></serviceml>', 1, 15, 'must be an http, https or mailto URL; got a ftp: URL'],
    ['<serviceml><a href=" JaVaScRiPt:alert(1)">x</a></serviceml>', 1, 15, 'got a javascript: URL'],
    ['<serviceml><a href="https://x.org" onclick="alert(1)">x</a></serviceml>', 1, 36, 'onclick is not allowed: ServiceML has no event handler attributes'],
    ['<serviceml><b style="color:red">x</b></serviceml>', 1, 15, 'style is not an attribute of <b>; <b> takes no attributes'],
    ['<serviceml><a href="https://a.org" href="https://b.org">x</a></serviceml>', 1, 36, 'the attribute href appears twice'],
    ['<serviceml><a href="https://x.org"title="t">x</a></serviceml>', 1, 35, 'put a space before the attribute title'],
    ['<serviceml><a href=https://x.org>x</a></serviceml>', 1, 20, 'must be in double or single quotes'],
    ['<serviceml><a href>x</a></serviceml>', 1, 15, 'the attribute href of <a> has no value'],
    ['<serviceml><a href="https://x.org>x</a></serviceml>', 1, 36, 'a raw < is not allowed in an attribute value'],
    ['<serviceml><a href="https://x.org', 1, 15, 'is never closed; add the closing "'],
    ['<serviceml><b/ ></serviceml>', 1, 14, 'expected /> to end the <b> tag'],
    ['<serviceml><b>x</b</serviceml>', 1, 19, 'expected > to end </b>'],
    ['<serviceml>x</ b></serviceml>', 1, 13, 'expected an element name after "</"'],
    ['<serviceml><user>x</user></serviceml>', 1, 12, '<user> needs a userId attribute'],
    ['<serviceml><user userId="u:ABCDEFGHIJKLMNOP">x</user></serviceml>', 1, 18, 'userId must be "u:" followed by 16 lowercase base32 characters'],
    [`<serviceml><user userid="${USER}">x</user></serviceml>`, 1, 18, 'userid is not an attribute of <user>; did you mean userId?'],
    [`<serviceml><user userId="${USER}"><b>x</b></user></serviceml>`, 1, 46, '<user> may only contain text'],
    ['<serviceml><action type="sendEvent">x</action></serviceml>', 1, 12, '<action> needs an id attribute'],
    ['<serviceml><action id="a">x</action></serviceml>', 1, 12, '<action> needs a type attribute: sendEvent, openWidget or openBrowser'],
    ['<serviceml><action id="a" type="launch">x</action></serviceml>', 1, 27, 'the type of <action> must be sendEvent, openWidget or openBrowser; got "launch"'],
    ['<serviceml><action id="a" type="openWidget">x</action></serviceml>', 1, 12, '<action> needs a url attribute with an http or https URL'],
    ['<serviceml><action id="a" type="openBrowser" url="mailto:a@b.c">x</action></serviceml>', 1, 46, 'the url of <action> must be an http or https URL; got a mailto: URL'],
    ['<serviceml><action id="a" type="sendEvent" desktopType="popup">x</action></serviceml>', 1, 44, 'the desktopType of <action> must be modal or sidebar'],
    ['<serviceml><action id="a" type="sendEvent" mobileType="sidebar">x</action></serviceml>', 1, 44, 'the mobileType of <action> must be modal; got "sidebar"'],
    ['<serviceml><action id="a" type="sendEvent" sendContext="yes">x</action></serviceml>', 1, 44, 'the sendContext of <action> must be true or false'],
    ['<serviceml><action id="  " type="sendEvent">x</action></serviceml>', 1, 20, 'the id of <action> must be 1 to 255 characters long'],
    ['<serviceml><a href="https://x.org"><a href="https://y.org">y</a></a></serviceml>', 1, 36, '<a> cannot be inside <a>'],
    ['<serviceml><action id="a" type="sendEvent"><a href="https://x.org">y</a></action></serviceml>', 1, 44, '<a> cannot be inside <action>'],
    ['<serviceml class="x"></serviceml>', 1, 12, '<serviceml> takes no attributes; remove class'],
    ['<serviceml><serviceml/></serviceml>', 1, 12, '<serviceml> can only be the root element'],
    ['<serviceml>a & b</serviceml>', 1, 14, 'a raw & must be written as &amp;'],
    ['<serviceml>a < b</serviceml>', 1, 14, 'a raw < must be written as &lt;'],
    ['<serviceml>&nbsp;</serviceml>', 1, 12, '&nbsp; is not a ServiceML entity; use &amp; &lt; &gt; &quot; &apos;'],
    ['<serviceml>&#0;</serviceml>', 1, 12, 'code point 0 is not allowed'],
    ['<serviceml>&#xD800;</serviceml>', 1, 12, 'names a surrogate (U+D800)'],
    ['<serviceml>&#x110000;</serviceml>', 1, 12, 'is beyond U+10FFFF'],
    ['<serviceml>&#99999999999;</serviceml>', 1, 12, 'is beyond U+10FFFF'],
    ['<serviceml>&#1;</serviceml>', 1, 12, 'names U+0001, which is not allowed'],
    ['<serviceml>&#X41;</serviceml>', 1, 12, 'with a lowercase x'],
    ['<serviceml>&#x41</serviceml>', 1, 12, 'a character reference looks like &#106; or &#x6A; and ends with ;'],
    ['<serviceml>\u0001</serviceml>', 1, 12, 'the character U+0001 is not allowed'],
    ['<serviceml>\uD800</serviceml>', 1, 12, 'an unpaired surrogate (U+D800)'],
    ['<serviceml><!-- note --></serviceml>', 1, 12, 'comments (<!-- … -->) are not allowed'],
    ['<serviceml><![CDATA[x]]></serviceml>', 1, 12, 'CDATA sections are not allowed'],
    ['<!DOCTYPE serviceml><serviceml/>', 1, 1, '<!DOCTYPE> is not allowed'],
    ['<serviceml><!ENTITY x "y"></serviceml>', 1, 12, 'entity declarations (<!ENTITY>) are not allowed'],
    ['<?xml version="1.0"?>\n<serviceml/>', 1, 1, 'the XML declaration (<?xml …?>) is not allowed'],
    ['<serviceml><?php echo 1; ?></serviceml>', 1, 12, 'processing instructions (<?…?>) are not allowed'],
    [nested(33), 1, 105, 'elements are nested 33 deep here; the limit is 32'],
    [sized(16_385), 1, 1, 'ServiceML document is 16,385 bytes; the limit is 16,384'],
    [sized(16_401, 'é'), 1, 1, 'ServiceML document is 16,401 bytes; the limit is 16,384'],
  ];

  it.each(invalid)('%j → %i:%i', (source, line, column, fragment) => {
    const result = parseServiceML(source);
    expect(result.ok).toBe(false);
    expect(validateServiceML(source)).toEqual(result);
    const problems = result.ok ? [] : result.problems;
    const match = problems.find((problem) => problem.message.includes(fragment));
    expect(match, describeProblems(problems, 10)).toBeDefined();
    expect({ line: match?.line, column: match?.column }).toEqual({ line, column });
  });

  it('lists every attribute problem of a document, in document order', () => {
    const result = parseServiceML('<serviceml>\n<b onclick="x">a</b>\n<a href="javascript:x" style="y">b</a>\n</serviceml>');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(({ line, column }) => `${line}:${column}`)).toEqual(['2:4', '3:4', '3:24']);
  });

  it('rejects a value that is not a string without throwing', () => {
    for (const value of [undefined, null, 42, {}, ['<serviceml/>']]) {
      const result = validateServiceML(value);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems[0]?.message).toMatch(/^ServiceML must be a string; got /);
    }
  });
});

describe('describeProblems', () => {
  it('joins the first few problems into one line', () => {
    const problems = [1, 2, 3, 4, 5].map((line) => ({ line, column: 1, message: `problem ${line}` }));
    expect(describeProblems(problems)).toBe('line 1:1: problem 1; line 2:1: problem 2; line 3:1: problem 3; and 2 more');
    expect(describeProblems(problems.slice(0, 1))).toBe('line 1:1: problem 1');
  });

  it('describes a real document the way an API error shows it', () => {
    const result = parseServiceML('<serviceml>\n\n  <blink>x</blink></serviceml>');
    expect(result.ok ? '' : describeProblems(result.problems)).toBe(
      'line 3:3: <blink> is not a ServiceML element; use a, b, strong, i, em, u, br, user or action',
    );
  });
});
