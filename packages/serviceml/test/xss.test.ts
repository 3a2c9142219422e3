/**
 * XSS corpus: every vector must be rejected by the validators. Each URL vector is tried in every
 * URL-bearing place of ServiceML and of an attachment; a safe URL in the same place must pass, so a
 * rejection is known to come from the vector and not from the template around it.
 */

import { describe, expect, it } from 'vitest';
import { describeProblems, parseServiceML, validateAction, validateServiceML, validateAttachments, validateUrlPreviewAnswer } from '../src/index.js';

const SAFE_URL = 'https://example.com/ok';

/** Rejected everywhere, whether written literally or decoded from an attribute. */
const dangerousUrls = [
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'JAVASCRIPT:alert(1)',
  '\tjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  'java\u0000script:alert(1)',
  'javascript\u0000:alert(1)',
  '\u0001javascript:alert(1)',
  '\u00a0javascript:alert(1)',
  '\u200bjavascript:alert(1)',
  '\ufeffjavascript:alert(1)',
  'java\u00adscript:alert(1)',
  'javascript://%0aalert(1)',
  'javascript:alert(1)//https://example.com/',
  'javascript&colon;alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'file:///etc/passwd',
  'about:blank',
  'blob:https://example.com/0b4e',
  '//evil.example/x',
  '///evil.example/x',
  '\\\\evil.example\\x',
  'https:\\\\evil.example',
  'http:evil.example',
  '/relative/path',
  'https://exa mple.com/',
  'https://',
];

/** Fine for a ServiceML link, never for an attachment or an action. */
const linkOnlyUrls = ['mailto:someone@example.com'];

/** An attribute value as a ServiceML author would write it, so only the URL itself can be at fault. */
const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

const serviceMLPlaces: Record<string, (url: string) => string> = {
  'a href': (url) => `<serviceml><a href="${attribute(url)}">x</a></serviceml>`,
  'action url (openBrowser)': (url) => `<serviceml><action id="a" type="openBrowser" url="${attribute(url)}">x</action></serviceml>`,
  'action url (openWidget)': (url) => `<serviceml><action id="a" type="openWidget" url="${attribute(url)}">x</action></serviceml>`,
  'action url (sendEvent)': (url) => `<serviceml><action id="a" type="sendEvent" url="${attribute(url)}">x</action></serviceml>`,
};

type Validation = { ok: true } | { ok: false; parameter: string; description: string };

/** `acceptsMailto`: the place is a ServiceML link, where mailto is allowed. */
const attachmentPlaces: Record<string, { parameter: string; validate: (url: string) => Validation; acceptsMailto?: true }> = {
  url: { parameter: 'attachments[0].url', validate: (url) => validateAttachments([{ url }]) },
  'views.widget.src': { parameter: 'attachments[0].views.widget.src', validate: (url) => validateAttachments([{ views: { widget: { src: url } } }]) },
  'views.image.original.src': {
    parameter: 'attachments[0].views.image.original.src',
    validate: (url) => validateAttachments([{ views: { image: { original: { src: url } } } }]),
  },
  'views.image.thumbnail.src': {
    parameter: 'attachments[0].views.image.thumbnail.src',
    validate: (url) => validateAttachments([{ views: { image: { original: { src: SAFE_URL }, thumbnail: { src: url } } } }]),
  },
  'views.serviceml': {
    parameter: 'attachments[0].views.serviceml',
    validate: (url) => validateAttachments([{ views: { serviceml: `<serviceml><a href="${attribute(url)}">x</a></serviceml>` } }]),
    acceptsMailto: true,
  },
  'downloads[0].src': { parameter: 'attachments[0].downloads[0].src', validate: (url) => validateAttachments([{ downloads: [{ src: url }] }]) },
  'buttons[0].icon': {
    parameter: 'attachments[0].buttons[0].icon',
    validate: (url) => validateAttachments([{ buttons: [{ name: 'Go', id: 'go', icon: url, action: { type: 'sendEvent' } }] }]),
  },
  'buttons[0].action.url': {
    parameter: 'attachments[0].buttons[0].action.url',
    validate: (url) => validateAttachments([{ buttons: [{ name: 'Go', id: 'go', action: { type: 'openBrowser', url } }] }]),
  },
  'validateAction url': { parameter: 'command.action.url', validate: (url) => validateAction({ type: 'openWidget', url }, 'command.action') },
  'URL preview answer widget': {
    parameter: 'attachment.views.widget.src',
    validate: (url) => validateUrlPreviewAnswer({ attachment: { views: { widget: { src: url } } } }),
  },
};

/** ServiceML written by an attacker: markup, entities and encodings rather than plain URLs. */
const markupVectors = [
  '<serviceml><script>alert(1)</script></serviceml>',
  '<script>alert(1)</script><serviceml/>',
  '<serviceml/><script>alert(1)</script>',
  '<serviceml>x</serviceml>&lt;script&gt;alert(1)&lt;/script&gt;',
  '<serviceml><b>x</serviceml><script>alert(1)</script>',
  '<serviceml><scr<script>ipt>alert(1)</script></serviceml>',
  '<serviceml>< script>alert(1)</script></serviceml>',
  '<serviceml><img src="x" onerror="alert(1)"/></serviceml>',
  '<serviceml><img src=x onerror=alert(1)></serviceml>',
  '<serviceml><b onmouseover="alert(1)">x</b></serviceml>',
  '<serviceml><a href="https://example.com" onclick="alert(1)">x</a></serviceml>',
  '<serviceml><a href="https://example.com" ONCLICK="alert(1)">x</a></serviceml>',
  '<serviceml><a href="https://example.com"onclick="alert(1)">x</a></serviceml>',
  '<serviceml><a href="https://example.com"/onclick="alert(1)">x</a></serviceml>',
  '<serviceml><action id="a" type="sendEvent" onclick="alert(1)">x</action></serviceml>',
  '<serviceml><user userId="u:abcdefghijklmnop" onmouseover="alert(1)">x</user></serviceml>',
  '<serviceml><br onload="alert(1)"/></serviceml>',
  '<serviceml onload="alert(1)"></serviceml>',
  '<serviceml><svg onload="alert(1)"/></serviceml>',
  '<serviceml><svg><script>alert(1)</script></svg></serviceml>',
  '<serviceml xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></serviceml>',
  '<serviceml><math><mi xlink:href="javascript:alert(1)">x</mi></math></serviceml>',
  '<serviceml><iframe src="javascript:alert(1)"></iframe></serviceml>',
  '<serviceml><iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/></serviceml>',
  '<serviceml><object data="javascript:alert(1)"></object></serviceml>',
  '<serviceml><embed src="https://evil.example/x.swf"/></serviceml>',
  '<serviceml><style>b{background:url(javascript:alert(1))}</style></serviceml>',
  '<serviceml><b style="background:url(javascript:alert(1))">x</b></serviceml>',
  '<serviceml><link rel="stylesheet" href="https://evil.example/x.css"/></serviceml>',
  '<serviceml><meta http-equiv="refresh" content="0;url=javascript:alert(1)"/></serviceml>',
  '<serviceml><base href="javascript:alert(1)//"/></serviceml>',
  '<serviceml><form action="javascript:alert(1)"><button>x</button></form></serviceml>',
  '<serviceml><input autofocus="" onfocus="alert(1)"/></serviceml>',
  '<serviceml><details open="" ontoggle="alert(1)">x</details></serviceml>',
  '<serviceml><template><script>alert(1)</script></template></serviceml>',
  '<serviceml><noscript><p title="&lt;/noscript&gt;&lt;img src=x onerror=alert(1)&gt;"/></noscript></serviceml>',
  '<serviceml><![CDATA[<script>alert(1)</script>]]></serviceml>',
  '<serviceml><!--<script>alert(1)</script>--></serviceml>',
  '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><serviceml>&xxe;</serviceml>',
  '<serviceml><!ENTITY x "<script>alert(1)</script>"></serviceml>',
  '<serviceml>&xxe;</serviceml>',
  '<?xml version="1.0"?><serviceml>x</serviceml>',
  '<?xml-stylesheet href="https://evil.example/x.xsl"?><serviceml/>',
  '<serviceml><a href=javascript:alert(1)>x</a></serviceml>',
  "<serviceml><a href='javascript:alert(1)'>x</a></serviceml>",
  '<serviceml><a href>x</a></serviceml>',
  '<serviceml><a href="https://example.com" href="javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a xlink:href="javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="https://example.com" target="_self">x</a></serviceml>',
  '<serviceml><a href="https://example.com" rel="opener">x</a></serviceml>',
  '<serviceml><a href="&#106;avascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#x6A;avascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#0000106;avascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#x6A&#x61;vascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="jav&#x61;script:alert(1)">x</a></serviceml>',
  '<serviceml><a href="java&#x09;script:alert(1)">x</a></serviceml>',
  '<serviceml><a href="java&#10;script:alert(1)">x</a></serviceml>',
  '<serviceml><a href="java&#13;script:alert(1)">x</a></serviceml>',
  '<serviceml><a href="javascript&#58;alert(1)">x</a></serviceml>',
  '<serviceml><a href="javascript&#x3A;alert(1)">x</a></serviceml>',
  '<serviceml><a href="javascript&colon;alert(1)">x</a></serviceml>',
  '<serviceml><a href="java&Tab;script:alert(1)">x</a></serviceml>',
  '<serviceml><a href="javascript&NewLine;:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#x20;javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#xFEFF;javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#x0;javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&#1;javascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="&amp;#106;avascript:alert(1)">x</a></serviceml>',
  '<serviceml><a href="data&#58;text/html,x">x</a></serviceml>',
  '<serviceml><a href="vbscript&#x3a;msgbox(1)">x</a></serviceml>',
  '<serviceml><a href="&#x2F;&#x2F;evil.example">x</a></serviceml>',
  '<serviceml><action id="a" type="javascript:alert(1)">x</action></serviceml>',
  '<serviceml><action id="a" type="openBrowser" url="&#106;avascript:alert(1)">x</action></serviceml>',
  '<serviceml><user userId="&quot; onmouseover=&quot;alert(1)">x</user></serviceml>',
  '<serviceml><user userId="u:abcdefghijklmnop&quot; onmouseover=&quot;alert(1)">x</user></serviceml>',
  '<serviceml>\u0000<script>alert(1)</script></serviceml>',
  '<serviceml>&#0;</serviceml>',
  '<serviceml>&#xD800;&#xDC00;</serviceml>',
  '<serviceml>&#x110000;</serviceml>',
  '<serviceml><B ONCLICK="alert(1)">x</B></serviceml>',
  '<serviceml><a href="https://example.com"><a href="javascript:alert(1)">x</a></a></serviceml>',
  '\ufeff<serviceml><script>alert(1)</script></serviceml>',
];

describe('XSS corpus', () => {
  describe('a safe URL passes in every place (control)', () => {
    it.each(Object.entries(serviceMLPlaces))('ServiceML %s', (_place, build) => {
      const result = parseServiceML(build(SAFE_URL));
      expect(result.ok ? '' : describeProblems(result.problems)).toBe('');
    });
    it.each(Object.entries(attachmentPlaces))('attachment %s', (_place, { validate }) => {
      expect(validate(SAFE_URL)).toMatchObject({ ok: true });
    });
  });

  const serviceMLUrlCases = Object.entries(serviceMLPlaces).flatMap(([place, build]) =>
    dangerousUrls.map((url) => [place, JSON.stringify(url), build(url)] as const),
  );
  it.each(serviceMLUrlCases)('ServiceML %s rejects %s', (_place, _url, source) => {
    expect(parseServiceML(source).ok).toBe(false);
    expect(validateServiceML(source).ok).toBe(false);
  });

  const attachmentUrlCases = Object.entries(attachmentPlaces).flatMap(([place, { parameter, validate, acceptsMailto }]) =>
    [...dangerousUrls, ...(acceptsMailto ? [] : linkOnlyUrls)].map((url) => [place, JSON.stringify(url), url, parameter, validate] as const),
  );
  it.each(attachmentUrlCases)('attachment %s rejects %s', (_place, _shown, url, parameter, validate) => {
    const result = validate(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.parameter).toBe(parameter);
  });

  it.each(markupVectors.map((source) => [source]))('ServiceML markup %j', (source) => {
    expect(parseServiceML(source).ok).toBe(false);
    expect(validateServiceML(source).ok).toBe(false);
  });

  it('has at least 100 vectors', () => {
    expect(serviceMLUrlCases.length + attachmentUrlCases.length + markupVectors.length).toBeGreaterThanOrEqual(100);
    expect(markupVectors.length).toBeGreaterThanOrEqual(60);
  });
});
