/**
 * Flock-compatible naming (docs/flock-compatibility.md), an Aviary extension: an app that turns it on
 * receives, beside the specification's wire names, the names that apps written for Flock and its SDKs
 * read, and may call with Flock's names. The specification's names stay the default; this module only
 * says what maps to what.
 */
import { widgetParams } from './events.js';

/** The listener header that carries the event token under Flock's name, beside `X-Service-Event-Token`. */
export const flockEventTokenHeader = 'X-Flock-Event-Token';

/** The widget and browser URL's query parameters under Flock's names, beside `widgetParams`. */
export const flockWidgetParams = {
  event: 'flockEvent',
  token: 'flockEventToken',
  client: 'flockClient',
  widgetType: 'flockWidgetType',
} as const satisfies Record<keyof typeof widgetParams, string>;

/** Event names that differ: the specification's name → Flock's. */
export const flockEventNames: Readonly<Record<string, string>> = { 'client.servicemlAction': 'client.flockmlAction' };

/** The parameter (and attachment view) that carries a markup document, under Flock's name. */
export const flockMarkupParam = 'flockml';

/**
 * Legacy method names Flock's official SDK still calls, and the method each stands for, with the
 * parameters it renames (Flock's name → ours).
 */
export const flockMethodAliases: Readonly<Record<string, { method: string; params: Readonly<Record<string, string>> }>> = {
  'groups.list': { method: 'channels.list', params: {} },
  'groups.getInfo': { method: 'channels.getInfo', params: { groupId: 'channelId' } },
  'groups.getMembers': { method: 'channels.listMembers', params: { groupId: 'channelId' } },
};

/** The window global of the widget script served at `/flock.js` (the same script as `/widget.js`, whose global is `Aviary`). */
export const flockWidgetScriptGlobal = 'flock';

/**
 * `<flockml>…</flockml>` is the same document as `<serviceml>…</serviceml>`: only the root's name
 * differs. A document that opens with `<flockml>` has it renamed, and its closing tag when there is one,
 * so that one left open is described by ServiceML's one check as open (not as starting with the wrong
 * root). Anything else is returned as it is, for that check to describe.
 */
export function serviceMLFromFlockML(document: unknown): unknown {
  if (typeof document !== 'string') return document;
  const opening = /^(\s*)<flockml>/.exec(document);
  if (!opening) return document;
  return `${opening[1]}<serviceml>${document.slice(opening[0].length)}`.replace(/<\/flockml>(\s*)$/, '</serviceml>$1');
}

/**
 * An attachment a Flock-named app gave (in a call, or as its answer to `chat.generateUrlPreview`) with
 * our names: `views.flockml` as `views.serviceml`. Undefined when it has no `views.flockml`; a
 * `views.serviceml` beside it is for the caller to refuse.
 */
export function attachmentWithOurNames(attachment: unknown): { attachment: Record<string, unknown>; both: boolean } | undefined {
  if (!isPlainObject(attachment) || !isPlainObject(attachment.views) || attachment.views[flockMarkupParam] === undefined) return undefined;
  const { [flockMarkupParam]: flockml, ...views } = attachment.views;
  return { attachment: { ...attachment, views: { ...views, serviceml: serviceMLFromFlockML(flockml) } }, both: views.serviceml !== undefined };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An event as a Flock-named app receives it: the renamed event names, and `messageId` beside
 * `messageUid` in `chat.generateUrlPreview`. Every other event is returned as it is.
 */
export function flockNamedEvent(event: { name: string; messageUid?: unknown }): { name: string; [attribute: string]: unknown } {
  const renamed = flockEventNames[event.name];
  if (renamed !== undefined) return { ...event, name: renamed };
  if (event.name === 'chat.generateUrlPreview') return { ...event, messageId: event.messageUid };
  return event;
}
