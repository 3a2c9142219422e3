/**
 * XSS corpus: every vector must be rejected by the validators. Each URL vector is tried in every
 * URL-bearing place of ServiceML and of an attachment; a safe URL in the same place must pass, so a
 * rejection is known to come from the vector and not from the template around it.
 */

import { describe, expect, it } from 'vitest';
import { describeProblems, parseServiceML, validateAction, validateServiceML, validateAttachments, validateUrlPreviewAnswer } from '../src/index.js';
import { dangerousUrls, linkOnlyUrls, markupVectors, SAFE_URL } from './xssCorpus.js';

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
