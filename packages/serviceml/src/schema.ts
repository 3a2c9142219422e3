/**
 * The element and attribute table of docs/reference/serviceml.md, and the checks that turn a start tag's raw
 * attributes into typed ones. Problems are reported (not thrown) so one pass can list them all.
 */

import { Action, actionTypes, desktopTypes, isUserId, mobileTypes } from '@aviary/protocol';
import { actionTypeNeedsUrl, isOneOf, listChoices, normaliseActionType } from './action.js';
import { abbreviate } from './characters.js';
import type { RawAttribute } from './tokenizer.js';
import type {
  FormattingElementName,
  LinkAttributes,
  NoAttributes,
  ServiceMLActionAttributes,
  ServiceMLElement,
  ServiceMLElementName,
  ServiceMLNode,
  ServiceMLText,
  UserAttributes,
} from './types.js';
import { checkUrl, describeSchemes, type UrlScheme } from './url.js';

export type ElementHead =
  | { name: 'a'; attributes: LinkAttributes }
  | { name: FormattingElementName | 'br'; attributes: NoAttributes }
  | { name: 'user'; attributes: UserAttributes }
  | { name: 'action'; attributes: ServiceMLActionAttributes };

/**
 * Where problems go. An object with a method rather than a callback, so that checking a tag creates
 * no closure. `reported` counts every problem ever reported (even past any cap on those kept), so that
 * a check can tell whether it found any.
 */
export interface ProblemSink {
  readonly reported: number;
  report(index: number, message: string): void;
}

const elementAttributes: Readonly<Record<ServiceMLElementName, readonly string[]>> = {
  a: ['href'],
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  br: [],
  user: ['userId'],
  /** An Action's fields, and the id sent back as `actionId`. */
  action: ['id', ...Object.keys(Action.properties)],
};

const elementNames = Object.keys(elementAttributes) as ServiceMLElementName[];

/** b, strong, i, em, u: the elements that only format their content. */
export const formattingElementNames = elementNames.filter((name) => name !== 'br' && elementAttributes[name].length === 0);

/**
 * The same table, for looking up a tag's name. A name sliced from the source is not an internalized
 * string, and indexing an object with one costs a string-table lookup; a Map only hashes it.
 */
const attributesByElement: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(elementAttributes));

/** Links and actions are interactive; HTML forbids nesting one inside another, so ServiceML does too. */
export const isInteractiveElement = (name: string): boolean => name === 'a' || name === 'action';

export const isElementName = (name: string): name is ServiceMLElementName => attributesByElement.has(name);

const LINK_SCHEMES: readonly UrlScheme[] = ['http', 'https', 'mailto'];
const WEB_SCHEMES: readonly UrlScheme[] = ['http', 'https'];
export const MAX_ACTION_ID_LENGTH = 255;

/** Checks a start tag against the table; undefined when it has a problem (already reported). */
export function readElementHead(name: string, attributes: readonly RawAttribute[], tagStart: number, sink: ProblemSink): ElementHead | undefined {
  const allowed = attributesByElement.get(name);
  if (allowed === undefined) {
    sink.report(tagStart, unknownElementMessage(name));
    return undefined;
  }
  if (allowed.length === 0 && attributes.length === 0) return plainHeads.get(name);
  const before = sink.reported;
  for (const attribute of attributes) {
    if (!allowed.includes(attribute.name)) sink.report(attribute.start, unknownAttributeMessage(name, attribute.name, allowed));
  }
  const head = readTypedAttributes(name as ServiceMLElementName, attributes, tagStart, sink);
  return sink.reported === before ? head : undefined;
}

/**
 * The heads of elements without attributes, made once: they are the most common tags, and a head
 * is only read (buildElement makes the node's own attributes object).
 */
const plainHeads: ReadonlyMap<string, ElementHead> = new Map(
  elementNames.filter((name) => elementAttributes[name].length === 0).map((name) => [name, { name, attributes: {} } as ElementHead]),
);

/**
 * The attribute called `name`, if the tag has it. A tag has a handful of attributes at most (the
 * tokenizer rejects duplicates), so a linear search beats building a Map for every tag.
 */
function attributeNamed(attributes: readonly RawAttribute[], name: string): RawAttribute | undefined {
  for (const attribute of attributes) if (attribute.name === name) return attribute;
  return undefined;
}

function readTypedAttributes(
  name: ServiceMLElementName,
  attributes: readonly RawAttribute[],
  tagStart: number,
  problems: ProblemSink,
): ElementHead {
  switch (name) {
    case 'a':
      return { name, attributes: { href: readUrlAttribute(name, 'href', attributes, tagStart, LINK_SCHEMES, problems, true) ?? '' } };
    case 'user':
      return { name, attributes: { userId: readUserId(attributes, tagStart, problems) } };
    case 'action':
      return { name, attributes: readActionAttributes(attributes, tagStart, problems) };
    default:
      return { name, attributes: {} };
  }
}

function readUserId(attributes: readonly RawAttribute[], tagStart: number, problems: ProblemSink): string {
  const attribute = attributeNamed(attributes, 'userId');
  if (attribute === undefined) problems.report(tagStart, '<user> needs a userId attribute, e.g. <user userId="u:abcdefghijklmnop">');
  else if (!isUserId(attribute.value)) {
    problems.report(attribute.start, `userId must be "u:" followed by 16 lowercase base32 characters (a-z, 2-7); got ${quote(attribute.value)}`);
  }
  return attribute?.value ?? '';
}

function readActionAttributes(given: readonly RawAttribute[], tagStart: number, problems: ProblemSink): ServiceMLActionAttributes {
  const id = attributeNamed(given, 'id');
  if (id === undefined) problems.report(tagStart, '<action> needs an id attribute; it is sent back as actionId when the action is used');
  else if (id.value.trim() === '' || id.value.length > MAX_ACTION_ID_LENGTH) {
    problems.report(id.start, `the id of <action> must be 1 to ${MAX_ACTION_ID_LENGTH} characters long`);
  }
  const rawType = attributeNamed(given, 'type');
  const type = rawType === undefined ? undefined : normaliseActionType(rawType.value);
  if (rawType === undefined) problems.report(tagStart, `<action> needs a type attribute: ${listChoices(actionTypes)}`);
  else if (type === undefined) problems.report(rawType.start, `the type of <action> must be ${listChoices(actionTypes)}; got ${quote(rawType.value)}`);
  const needsUrl = type !== undefined && actionTypeNeedsUrl(type);
  const url = readUrlAttribute('action', 'url', given, tagStart, WEB_SCHEMES, problems, needsUrl);
  const attributes: ServiceMLActionAttributes = { id: id?.value ?? '', type: type ?? 'sendEvent' };
  if (url !== undefined) attributes.url = url;
  const desktopType = readChoice('desktopType', given, desktopTypes, problems);
  if (desktopType !== undefined) attributes.desktopType = desktopType;
  const mobileType = readChoice('mobileType', given, mobileTypes, problems);
  if (mobileType !== undefined) attributes.mobileType = mobileType;
  const sendContext = readChoice('sendContext', given, ['true', 'false'], problems);
  if (sendContext !== undefined) attributes.sendContext = sendContext === 'true';
  return attributes;
}

function readUrlAttribute(
  element: string,
  name: string,
  attributes: readonly RawAttribute[],
  tagStart: number,
  schemes: readonly UrlScheme[],
  problems: ProblemSink,
  required: boolean,
): string | undefined {
  const attribute = attributeNamed(attributes, name);
  if (attribute === undefined) {
    if (required) problems.report(tagStart, `<${element}> needs a ${name} attribute with ${describeSchemes(schemes)}`);
    return undefined;
  }
  const check = checkUrl(attribute.value, schemes);
  if (!check.ok) problems.report(attribute.start, `the ${name} of <${element}> must be ${describeSchemes(schemes)}; ${check.reason}`);
  return check.ok ? check.url : undefined;
}

function readChoice<T extends string>(
  name: string,
  attributes: readonly RawAttribute[],
  choices: readonly T[],
  problems: ProblemSink,
): T | undefined {
  const attribute = attributeNamed(attributes, name);
  if (attribute === undefined) return undefined;
  if (isOneOf(choices, attribute.value)) return attribute.value;
  problems.report(attribute.start, `the ${name} of <action> must be ${listChoices(choices)}; got ${quote(attribute.value)}`);
  return undefined;
}

function unknownElementMessage(name: string): string {
  const lower = name.toLowerCase();
  if (isElementName(lower)) return `<${abbreviate(name)}> is not a ServiceML element; element names are lowercase: write <${lower}>`;
  return `<${abbreviate(name)}> is not a ServiceML element; use ${listChoices(elementNames)}`;
}

function unknownAttributeMessage(element: string, attribute: string, allowed: readonly string[]): string {
  const shown = abbreviate(attribute);
  const sameLetters = allowed.find((name) => name.toLowerCase() === attribute.toLowerCase());
  if (sameLetters !== undefined) return `${shown} is not an attribute of <${element}>; did you mean ${sameLetters}?`;
  const takes = allowed.length === 0 ? `<${element}> takes no attributes` : `<${element}> takes ${listChoices(allowed)}`;
  if (/^on/i.test(attribute)) return `${shown} is not allowed: ServiceML has no event handler attributes; ${takes}`;
  return `${shown} is not an attribute of <${element}>; ${takes}`;
}

const quote = (value: string): string => JSON.stringify(abbreviate(value));

/** Attaches the children collected between a start tag and its end tag. */
export function buildElement(head: ElementHead, children: ServiceMLNode[]): ServiceMLElement {
  switch (head.name) {
    case 'br':
      return { type: 'element', name: 'br', attributes: {}, children: [] };
    case 'user':
      return { type: 'element', name: 'user', attributes: head.attributes, children: textOnly(children) };
    case 'a':
      return { type: 'element', name: 'a', attributes: head.attributes, children };
    case 'action':
      return { type: 'element', name: 'action', attributes: head.attributes, children };
    default:
      return { type: 'element', name: head.name, attributes: {}, children };
  }
}

/** The text children of a <user> (the parser has reported any element among them). */
function textOnly(children: readonly ServiceMLNode[]): ServiceMLText[] {
  const texts: ServiceMLText[] = [];
  for (const child of children) if (child.type === 'text') texts.push(child);
  return texts;
}
