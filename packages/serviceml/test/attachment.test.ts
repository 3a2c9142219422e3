import { describe, expect, it } from 'vitest';
import { validateAction, validateAttachments, validateUrlPreviewAnswer, type Attachment } from '../src/index.js';

const URL = 'https://app.example/page';
const sendEvent = { type: 'sendEvent' };
const button = (overrides: Record<string, unknown> = {}) => ({ name: 'Approve', id: 'approve', action: sendEvent, ...overrides });

describe('validateAttachments: valid values come back normalised', () => {
  it('accepts an empty list', () => {
    expect(validateAttachments([])).toEqual({ ok: true, value: [] });
  });

  it('accepts every field and normalises strings, numbers, colours and nulls', () => {
    const result = validateAttachments([
      {
        id: 'att-1',
        appId: 'app-1',
        title: 'Build #42',
        description: 'passed',
        color: '#AABBCC',
        url: `  ${URL}  `,
        forward: 'true',
        views: {
          widget: { src: URL, width: '320', height: 240.5 },
          html: { inline: '<p onclick="x">sandboxed</p>', width: 100 },
          serviceml: '<serviceml><b>Build</b> passed</serviceml>',
          image: { original: { src: URL, width: '800', height: '600' }, thumbnail: { src: URL }, filename: 'shot.png' },
        },
        downloads: [{ src: URL, mime: 'application/pdf', filename: 'report.pdf', size: '1024' }, { src: URL, mime: null }],
        buttons: [
          button({ icon: URL }),
          button({ id: 'open', name: 'Open', action: { type: 'openWidget', url: URL, desktopType: 'sidebar', mobileType: 'modal' } }),
          button({ id: 'web', name: 'Web', action: { type: 'openBrowser', url: URL, sendContext: 'false' } }),
          button({ id: 'legacy', name: 'Legacy', action: { type: 'sendToAppService' } }),
        ],
      },
    ]);
    const expected: Attachment = {
      id: 'att-1',
      appId: 'app-1',
      title: 'Build #42',
      description: 'passed',
      color: '#aabbcc',
      url: URL,
      forward: true,
      views: {
        widget: { src: URL, width: 320, height: 240.5 },
        html: { inline: '<p onclick="x">sandboxed</p>', width: 100 },
        serviceml: '<serviceml><b>Build</b> passed</serviceml>',
        image: { original: { src: URL, width: 800, height: 600 }, thumbnail: { src: URL }, filename: 'shot.png' },
      },
      downloads: [{ src: URL, mime: 'application/pdf', filename: 'report.pdf', size: 1024 }, { src: URL }],
      buttons: [
        { name: 'Approve', id: 'approve', icon: URL, action: { type: 'sendEvent' } },
        { name: 'Open', id: 'open', action: { type: 'openWidget', url: URL, desktopType: 'sidebar', mobileType: 'modal' } },
        { name: 'Web', id: 'web', action: { type: 'openBrowser', url: URL, sendContext: false } },
        { name: 'Legacy', id: 'legacy', action: { type: 'sendEvent' } },
      ],
    };
    expect(result).toEqual({ ok: true, value: [expected] });
    if (result.ok) expect(Object.keys(result.value[0]!.downloads![1]!)).toEqual(['src']);
  });

  it('accepts a title-only attachment and null fields as absent', () => {
    expect(validateAttachments([{ title: 'Hi', url: null, views: null }])).toEqual({ ok: true, value: [{ title: 'Hi' }] });
  });
});

describe('validateAttachments: invalid values name the exact parameter', () => {
  const long = (length: number) => 'x'.repeat(length);
  const attach = (fields: Record<string, unknown>) => [fields];
  const views = (value: Record<string, unknown>) => attach({ views: value });
  // [name, value, parameter, description fragment]
  const invalid: [string, unknown, string, string][] = [
    ['not an array', '{"title":"x"}', 'attachments', 'attachments must be an array of attachments; got the string'],
    ['two attachments', [{}, {}], 'attachments', 'a message carries at most one attachment; attachments has 2'],
    ['a number item', [42], 'attachments[0]', 'attachments[0] must be an object; got a number'],
    ['unknown fields', attach({ foo: 1, bar: 2 }), 'attachments[0]', 'has unknown fields "foo", "bar"; allowed fields are id, appId, title'],
    ['an id that is too long', attach({ id: long(256) }), 'attachments[0].id', 'is 256 characters long; the limit is 255'],
    ['an empty id', attach({ id: ' ' }), 'attachments[0].id', 'must not be empty'],
    ['a numeric title', attach({ title: 5 }), 'attachments[0].title', 'must be a string; got a number'],
    ['a title that is too long', attach({ title: long(1025) }), 'attachments[0].title', 'the limit is 1024'],
    ['a description that is too long', attach({ description: long(4097) }), 'attachments[0].description', 'the limit is 4096'],
    ['a named colour', attach({ color: 'red' }), 'attachments[0].color', 'must be a colour written #rrggbb'],
    ['a short colour', attach({ color: '#abc' }), 'attachments[0].color', 'got the string "#abc"'],
    ['a javascript: url', attach({ url: 'javascript:alert(1)' }), 'attachments[0].url', 'must be an http or https URL; got a javascript: URL'],
    ['a url that is too long', attach({ url: `https://x.org/${long(2040)}` }), 'attachments[0].url', 'the limit is 2048'],
    ['forward as yes', attach({ forward: 'yes' }), 'attachments[0].forward', 'must be true or false; got the string "yes"'],
    ['views as an array', attach({ views: [] }), 'attachments[0].views', 'must be an object; got an array'],
    ['an unknown view', views({ video: {} }), 'attachments[0].views', 'an unknown field "video"'],
    ['a widget without src', views({ widget: {} }), 'attachments[0].views.widget.src', 'is required and must be an http or https URL'],
    ['a zero widget width', views({ widget: { src: URL, width: 0 } }), 'attachments[0].views.widget.width', 'must be a number greater than 0 and at most 10000; got 0'],
    ['a huge widget height', views({ widget: { src: URL, height: 10_001 } }), 'attachments[0].views.widget.height', 'got 10001'],
    ['a widget width in px', views({ widget: { src: URL, width: '12px' } }), 'attachments[0].views.widget.width', 'got the string "12px"'],
    ['a widget field too many', views({ widget: { src: URL, sandbox: 'allow-scripts' } }), 'attachments[0].views.widget', 'an unknown field "sandbox"'],
    ['html without inline', views({ html: {} }), 'attachments[0].views.html.inline', 'is required'],
    ['inline html over 64 KiB', views({ html: { inline: long(65_537) } }), 'attachments[0].views.html.inline', 'is 65,537 bytes; the limit is 65,536'],
    ['invalid ServiceML', views({ serviceml: '<serviceml><blink/></serviceml>' }), 'attachments[0].views.serviceml', 'is not valid ServiceML: line 1:12: <blink> is not a ServiceML element'],
    ['ServiceML as an object', views({ serviceml: {} }), 'attachments[0].views.serviceml', 'must be a ServiceML document (a string); got an object'],
    ['an image without original', views({ image: {} }), 'attachments[0].views.image.original', 'is required'],
    ['an image with a data: src', views({ image: { original: { src: 'data:image/png;base64,AAAA' } } }), 'attachments[0].views.image.original.src', 'got a data: URL'],
    ['a negative thumbnail height', views({ image: { original: { src: URL }, thumbnail: { src: URL, height: '-1' } } }), 'attachments[0].views.image.thumbnail.height', 'got the string "-1"'],
    ['a long image filename', views({ image: { original: { src: URL }, filename: long(256) } }), 'attachments[0].views.image.filename', 'the limit is 255'],
    ['downloads as an object', attach({ downloads: {} }), 'attachments[0].downloads', 'must be an array; got an object'],
    ['eleven downloads', attach({ downloads: Array.from({ length: 11 }, () => ({ src: URL })) }), 'attachments[0].downloads', 'has 11 downloads; the limit is 10'],
    ['a download without src', attach({ downloads: [{ mime: 'text/plain' }] }), 'attachments[0].downloads[0].src', 'is required'],
    ['a protocol-relative download', attach({ downloads: [{ src: '//evil.example/x' }] }), 'attachments[0].downloads[0].src', 'protocol-relative'],
    ['a negative download size', attach({ downloads: [{ src: URL, size: -1 }] }), 'attachments[0].downloads[0].size', 'must be an integer at least 0'],
    ['a fractional download size', attach({ downloads: [{ src: URL, size: 1.5 }] }), 'attachments[0].downloads[0].size', 'got 1.5'],
    ['a download field too many', attach({ downloads: [{ src: URL, url: URL }] }), 'attachments[0].downloads[0]', 'an unknown field "url"'],
    ['eleven buttons', attach({ buttons: Array.from({ length: 11 }, (_, index) => button({ id: `b${index}` })) }), 'attachments[0].buttons', 'has 11 buttons; the limit is 10'],
    ['a button without name', attach({ buttons: [{ id: 'b', action: sendEvent }] }), 'attachments[0].buttons[0].name', 'is required'],
    ['a button name that is too long', attach({ buttons: [button({ name: long(101) })] }), 'attachments[0].buttons[0].name', 'the limit is 100'],
    ['a button without id', attach({ buttons: [{ name: 'b', action: sendEvent }] }), 'attachments[0].buttons[0].id', 'is required'],
    ['a button without action', attach({ buttons: [{ name: 'b', id: 'b' }] }), 'attachments[0].buttons[0].action', 'is required'],
    ['a button with a vbscript: icon', attach({ buttons: [button({ icon: 'vbscript:msgbox(1)' })] }), 'attachments[0].buttons[0].icon', 'got a vbscript: URL'],
    ['two buttons with one id', attach({ buttons: [button(), button({ name: 'Again' })] }), 'attachments[0].buttons[1].id', 'already used by attachments[0].buttons[0]'],
    ['an action without type', attach({ buttons: [button({ action: {} })] }), 'attachments[0].buttons[0].action.type', 'is required; it must be sendEvent, openWidget or openBrowser'],
    ['an unknown action type', attach({ buttons: [button({ action: { type: 'launch' } })] }), 'attachments[0].buttons[0].action.type', 'got the string "launch"'],
    ['openWidget without url', attach({ buttons: [button({ action: { type: 'openWidget' } })] }), 'attachments[0].buttons[0].action.url', 'is required'],
    ['a popup desktopType', attach({ buttons: [button({ action: { type: 'sendEvent', desktopType: 'popup' } })] }), 'attachments[0].buttons[0].action.desktopType', 'must be modal or sidebar'],
    ['a sidebar mobileType', attach({ buttons: [button({ action: { type: 'sendEvent', mobileType: 'sidebar' } })] }), 'attachments[0].buttons[0].action.mobileType', 'must be modal; got the string "sidebar"'],
    ['a maybe sendContext', attach({ buttons: [button({ action: { type: 'openBrowser', url: URL, sendContext: 'maybe' } })] }), 'attachments[0].buttons[0].action.sendContext', 'must be true or false'],
    ['an action field too many', attach({ buttons: [button({ action: { type: 'sendEvent', target: '_top' } })] }), 'attachments[0].buttons[0].action', 'an unknown field "target"'],
  ];

  it.each(invalid)('%s', (_name, value, parameter, fragment) => {
    const result = validateAttachments(value);
    expect(result).toMatchObject({ ok: false, parameter });
    if (!result.ok) {
      expect(result.description).toContain(fragment);
      expect(result.description.startsWith(parameter) || parameter === 'attachments').toBe(true);
    }
  });

  it('uses the parameter name it is given', () => {
    expect(validateAttachments([{ color: 1 }], 'message.attachments')).toMatchObject({ ok: false, parameter: 'message.attachments[0].color' });
  });
});

describe('validateUrlPreviewAnswer', () => {
  const attachment = { title: 'Example', views: { widget: { src: URL, width: '400', height: 300 } } };
  const normalised = { title: 'Example', views: { widget: { src: URL, width: 400, height: 300 } } };

  it('accepts the wrapped and the unwrapped form', () => {
    expect(validateUrlPreviewAnswer({ attachment })).toEqual({ ok: true, value: normalised });
    expect(validateUrlPreviewAnswer(attachment)).toEqual({ ok: true, value: normalised });
  });

  it.each([
    [{ attachment: 5 }, 'attachment', 'attachment must be an object; got a number'],
    [null, 'attachment', 'attachment must be an object; got null'],
    [{ attachment: { color: 'blue' } }, 'attachment.color', 'must be a colour'],
    [{ title: 'x', views: { serviceml: '<b>x</b>' } }, 'attachment.views.serviceml', 'line 1:1: the document must start with <serviceml>'],
  ])('rejects %j', (body, parameter, fragment) => {
    const result = validateUrlPreviewAnswer(body);
    expect(result).toMatchObject({ ok: false, parameter });
    if (!result.ok) expect(result.description).toContain(fragment);
  });
});

describe('validateAction', () => {
  it('normalises aliases and boolean strings', () => {
    expect(validateAction({ type: 'sendToApp', sendContext: 'true' }, 'action')).toEqual({ ok: true, value: { type: 'sendEvent', sendContext: true } });
  });

  it('names the path it is given', () => {
    expect(validateAction({ type: 'openBrowser', url: 'file:///etc/passwd' }, 'commands[2].action')).toEqual({
      ok: false,
      parameter: 'commands[2].action.url',
      description: 'commands[2].action.url must be an http or https URL; got a file: URL',
    });
    expect(validateAction('sendEvent', 'action')).toEqual({ ok: false, parameter: 'action', description: 'action must be an object; got the string "sendEvent"' });
  });
});
