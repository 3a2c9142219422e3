/**
 * The element and attribute table of reference §6, and the checks that turn a start tag's raw
 * attributes into typed ones. Problems are reported (not thrown) so one pass can list them all.
 */

import { actionTypeNeedsUrl, actionTypes, desktopTypes, isOneOf, listChoices, mobileTypes, normaliseActionType } from './action.js';
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

export type ReportProblem = (index: number, message: string) => void;

const elementAttributes: Readonly<Record<ServiceMLElementName, readonly string[]>> = {
  a: ['href'],
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  br: [],
  user: ['userId'],
  action: ['id', 'type', 'url', 'desktopType', 'mobileType', 'sendContext'],
};

const elementNames = Object.keys(elementAttributes) as ServiceMLElementName[];

/** Links and actions are interactive; HTML forbids nesting one inside another, so ServiceML does too. */
export const interactiveElements: readonly string[] = ['a', 'action'];

export const isElementName = (name: string): name is ServiceMLElementName => isOneOf(elementNames, name);

const LINK_SCHEMES: readonly UrlScheme[] = ['http', 'https', 'mailto'];
const WEB_SCHEMES: readonly UrlScheme[] = ['http', 'https'];
const USER_ID = /^u:[a-z2-7]{16}$/;
const MAX_ACTION_ID_LENGTH = 255;

/** Checks a start tag against the table; undefined when it has a problem (already reported). */
export function readElementHead(name: string, attributes: readonly RawAttribute[], tagStart: number, report: ReportProblem): ElementHead | undefined {
  if (!isElementName(name)) {
    report(tagStart, unknownElementMessage(name));
    return undefined;
  }
  const allowed = elementAttributes[name];
  if (allowed.length === 0 && attributes.length === 0) return { name: name as FormattingElementName | 'br', attributes: {} };
  const unknown = attributes.filter((attribute) => !allowed.includes(attribute.name));
  for (const attribute of unknown) report(attribute.start, unknownAttributeMessage(name, attribute.name, allowed));
  const values = new Map(attributes.map((attribute) => [attribute.name, attribute] as const));
  let problems = unknown.length;
  const head = readTypedAttributes(name, values, tagStart, (index, message) => {
    problems++;
    report(index, message);
  });
  return problems === 0 ? head : undefined;
}

function readTypedAttributes(
  name: ServiceMLElementName,
  values: ReadonlyMap<string, RawAttribute>,
  tagStart: number,
  report: ReportProblem,
): ElementHead {
  switch (name) {
    case 'a':
      return { name, attributes: { href: readUrlAttribute(name, 'href', values, tagStart, LINK_SCHEMES, report, true) ?? '' } };
    case 'user':
      return { name, attributes: { userId: readUserId(values, tagStart, report) } };
    case 'action':
      return { name, attributes: readActionAttributes(values, tagStart, report) };
    default:
      return { name, attributes: {} };
  }
}

function readUserId(values: ReadonlyMap<string, RawAttribute>, tagStart: number, report: ReportProblem): string {
  const attribute = values.get('userId');
  if (attribute === undefined) report(tagStart, '<user> needs a userId attribute, e.g. <user userId="u:abcdefghijklmnop">');
  else if (!USER_ID.test(attribute.value)) {
    report(attribute.start, `userId must be "u:" followed by 16 lowercase base32 characters (a-z, 2-7); got ${quote(attribute.value)}`);
  }
  return attribute?.value ?? '';
}

function readActionAttributes(values: ReadonlyMap<string, RawAttribute>, tagStart: number, report: ReportProblem): ServiceMLActionAttributes {
  const id = values.get('id');
  if (id === undefined) report(tagStart, '<action> needs an id attribute; it is sent back as actionId when the action is used');
  else if (id.value.trim() === '' || id.value.length > MAX_ACTION_ID_LENGTH) {
    report(id.start, `the id of <action> must be 1 to ${MAX_ACTION_ID_LENGTH} characters long`);
  }
  const rawType = values.get('type');
  const type = rawType === undefined ? undefined : normaliseActionType(rawType.value);
  if (rawType === undefined) report(tagStart, `<action> needs a type attribute: ${listChoices(actionTypes)}`);
  else if (type === undefined) report(rawType.start, `the type of <action> must be ${listChoices(actionTypes)}; got ${quote(rawType.value)}`);
  const needsUrl = type !== undefined && actionTypeNeedsUrl(type);
  const url = readUrlAttribute('action', 'url', values, tagStart, WEB_SCHEMES, report, needsUrl);
  const attributes: ServiceMLActionAttributes = { id: id?.value ?? '', type: type ?? 'sendEvent' };
  if (url !== undefined) attributes.url = url;
  const desktopType = readChoice('desktopType', values, desktopTypes, report);
  if (desktopType !== undefined) attributes.desktopType = desktopType;
  const mobileType = readChoice('mobileType', values, mobileTypes, report);
  if (mobileType !== undefined) attributes.mobileType = mobileType;
  const sendContext = readChoice('sendContext', values, ['true', 'false'], report);
  if (sendContext !== undefined) attributes.sendContext = sendContext === 'true';
  return attributes;
}

function readUrlAttribute(
  element: string,
  name: string,
  values: ReadonlyMap<string, RawAttribute>,
  tagStart: number,
  schemes: readonly UrlScheme[],
  report: ReportProblem,
  required: boolean,
): string | undefined {
  const attribute = values.get(name);
  if (attribute === undefined) {
    if (required) report(tagStart, `<${element}> needs a ${name} attribute with ${describeSchemes(schemes)}`);
    return undefined;
  }
  const check = checkUrl(attribute.value, schemes);
  if (!check.ok) report(attribute.start, `the ${name} of <${element}> must be ${describeSchemes(schemes)}; ${check.reason}`);
  return check.ok ? check.url : undefined;
}

function readChoice<T extends string>(
  name: string,
  values: ReadonlyMap<string, RawAttribute>,
  choices: readonly T[],
  report: ReportProblem,
): T | undefined {
  const attribute = values.get(name);
  if (attribute === undefined) return undefined;
  if (isOneOf(choices, attribute.value)) return attribute.value;
  report(attribute.start, `the ${name} of <action> must be ${listChoices(choices)}; got ${quote(attribute.value)}`);
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
      return { type: 'element', ...head, children: children.filter((child): child is ServiceMLText => child.type === 'text') };
    case 'a':
    case 'action':
      return { type: 'element', ...head, children };
    default:
      return { type: 'element', name: head.name, attributes: {}, children };
  }
}
