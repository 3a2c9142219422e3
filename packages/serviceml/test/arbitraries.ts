/** fast-check generators of valid ServiceML trees, shaped exactly as the parser returns them. */

import fc from 'fast-check';
import { actionTypes } from '@aviary/protocol';
import { checkUrl, type ActionType, type ServiceMLActionAttributes, type ServiceMLNode, type ServiceMLRoot, type ServiceMLText } from '../src/index.js';

/** Characters XML allows, with the ones markup cares about made frequent. */
const xmlChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('<', '>', '&', '"', "'", ';', '#', '/', '=', ' ', '\n', '\t', '\r', '@', ':') },
  { weight: 5, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
).filter((char) => !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(char));

const xmlText = (options: { minLength?: number; maxLength?: number } = {}) => fc.string({ unit: xmlChar, ...options });

export const userIdArbitrary = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz234567'), minLength: 16, maxLength: 16 }).map((id) => `u:${id}`);

const formattingName = fc.constantFrom('b' as const, 'strong' as const, 'i' as const, 'em' as const, 'u' as const);

// fast-check's URLs and e-mail addresses include some the WHATWG parser refuses (an address such as
// `//a.|a./a@a.aa` makes `mailto://a.|a./…`), and so does the URL check: a valid tree holds only URLs it accepts.
const accepted = (schemes: Parameters<typeof checkUrl>[1]) => (url: string) => checkUrl(url, schemes).ok;

const webUrl = fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(accepted(['http', 'https']));

export const hrefArbitrary = fc.oneof(webUrl, fc.emailAddress().map((address) => `mailto:${address}`).filter(accepted(['mailto'])));

const actionAttributes: fc.Arbitrary<ServiceMLActionAttributes> = fc
  .record(
    {
      id: xmlText({ minLength: 1, maxLength: 20 }).filter((id) => id.trim() !== ''),
      type: fc.constantFrom<ActionType>(...actionTypes),
      url: webUrl,
      desktopType: fc.constantFrom('modal' as const, 'sidebar' as const),
      mobileType: fc.constant('modal' as const),
      sendContext: fc.boolean(),
    },
    { requiredKeys: ['id', 'type'] },
  )
  .chain((attributes) =>
    // openWidget and openBrowser need a url; give them one when the record left it out.
    attributes.type !== 'sendEvent' && attributes.url === undefined ? webUrl.map((url) => ({ ...attributes, url })) : fc.constant(attributes),
  );

const nodesByLevel = new Map<string, fc.Arbitrary<ServiceMLNode[]>>();

/** Children of an element at `depth` (root = 1); links and actions never nest (the parser rejects that). */
function nodes(depth: number, insideInteractive: boolean): fc.Arbitrary<ServiceMLNode[]> {
  const key = `${depth}:${insideInteractive}`;
  const known = nodesByLevel.get(key);
  if (known !== undefined) return known;
  const built = buildNodes(depth, insideInteractive);
  nodesByLevel.set(key, built);
  return built;
}

function buildNodes(depth: number, insideInteractive: boolean): fc.Arbitrary<ServiceMLNode[]> {
  const text = xmlText({ minLength: 1, maxLength: 12 }).map((value): ServiceMLNode => ({ type: 'text', value }));
  if (depth >= 6) return fc.array(text, { maxLength: 2 }).map(mergeTexts);
  const children = (interactive: boolean) => fc.constant(null).chain(() => nodes(depth + 1, interactive));
  const element: fc.Arbitrary<ServiceMLNode>[] = [
    fc.record({
      name: formattingName,
      children: children(insideInteractive),
    }).map(({ name, children }) => ({ type: 'element', name, attributes: {}, children })),
    fc.constant<ServiceMLNode>({ type: 'element', name: 'br', attributes: {}, children: [] }),
    fc.record({ userId: userIdArbitrary, name: fc.array(text, { maxLength: 1 }) }).map(({ userId, name }) => ({
      type: 'element',
      name: 'user',
      attributes: { userId },
      children: name.filter((node) => node.type === 'text'),
    })),
  ];
  if (!insideInteractive) {
    element.push(
      fc.record({ href: hrefArbitrary, children: children(true) }).map(({ href, children }) => ({ type: 'element', name: 'a', attributes: { href }, children })),
      fc.record({ attributes: actionAttributes, children: children(true) }).map(({ attributes, children }) => ({
        type: 'element',
        name: 'action',
        attributes,
        children,
      })),
    );
  }
  return fc.array(fc.oneof(text, ...element), { maxLength: 4 }).map(mergeTexts);
}

/** The parser yields one text node between two tags, so adjacent generated texts are joined. */
function mergeTexts(input: ServiceMLNode[]): ServiceMLNode[] {
  const output: ServiceMLNode[] = [];
  for (const node of input) {
    const previous = output.at(-1);
    if (node.type === 'text' && previous?.type === 'text') output[output.length - 1] = { type: 'text', value: previous.value + node.value };
    else output.push(node);
  }
  return output;
}

export const serviceMLTreeArbitrary: fc.Arbitrary<ServiceMLRoot> = nodes(1, false).map((children) => ({ type: 'root', children }));

/** http(s) URLs of ASCII host names and printable paths, `&` included: the URLs of the flat shape. */
const plainWebUrl = fc
  .tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.string({ unit: fc.constantFrom(...'azAZ09-._~/?#=&%+!$()*,;:@'), maxLength: 30 }))
  .map(([scheme, host, path]) => `${scheme}://${host}/${path}`)
  .filter(accepted(['http', 'https']));

const br: ServiceMLNode = { type: 'element', name: 'br', attributes: {}, children: [] };
const leafText = fc.array(xmlText({ minLength: 1, maxLength: 12 }).map((value): ServiceMLText => ({ type: 'text', value })), { maxLength: 1 });
/** Text, breaks and formatting holding text: what a flat document's elements other than <user> hold. */
const inlineNodes: fc.Arbitrary<ServiceMLNode[]> = fc
  .array(
    fc.oneof(
      leafText.map((texts): ServiceMLNode[] => texts),
      fc.constant<ServiceMLNode[]>([br]),
      fc.record({ name: formattingName, children: leafText }).map(({ name, children }): ServiceMLNode[] => [{ type: 'element', name, attributes: {}, children }]),
    ),
    { maxLength: 3 },
  )
  .map((groups) => mergeTexts(groups.flat()));

/** Flat action attributes, in the order of docs/reference/serviceml.md, with ids of name characters. */
const flatActionAttributes: fc.Arbitrary<ServiceMLActionAttributes> = fc
  .record({
    id: fc.string({ unit: fc.constantFrom(...'azAZ09_.:-'), minLength: 1, maxLength: 20 }),
    type: fc.constantFrom<ActionType>(...actionTypes),
    url: fc.option(plainWebUrl, { nil: undefined }),
    desktopType: fc.option(fc.constantFrom('modal' as const, 'sidebar' as const), { nil: undefined }),
    mobileType: fc.option(fc.constant('modal' as const), { nil: undefined }),
    sendContext: fc.option(fc.boolean(), { nil: undefined }),
  })
  .chain(({ url, ...rest }) => (rest.type !== 'sendEvent' && url === undefined ? plainWebUrl : fc.constant(url)).map((url) => ({ ...rest, url })))
  .map(({ id, type, url, desktopType, mobileType, sendContext }) => {
    const attributes: ServiceMLActionAttributes = { id, type };
    if (url !== undefined) attributes.url = url;
    if (desktopType !== undefined) attributes.desktopType = desktopType;
    if (mobileType !== undefined) attributes.mobileType = mobileType;
    if (sendContext !== undefined) attributes.sendContext = sendContext;
    return attributes;
  });

/**
 * Documents of the flat shape that validateServiceML checks with one pattern (quick-accept.ts): text,
 * `<br/>`, and elements holding text, breaks and formatting, with attributes as the serializer writes them.
 */
export const flatServiceMLTreeArbitrary: fc.Arbitrary<ServiceMLRoot> = fc
  .array(
    fc.oneof(
      xmlText({ minLength: 1, maxLength: 12 }).map((value): ServiceMLNode => ({ type: 'text', value })),
      fc.constant(br),
      fc.record({ name: formattingName, children: inlineNodes }).map(({ name, children }): ServiceMLNode => ({ type: 'element', name, attributes: {}, children })),
      fc.record({ href: plainWebUrl, children: inlineNodes }).map(({ href, children }): ServiceMLNode => ({ type: 'element', name: 'a', attributes: { href }, children })),
      fc.record({ userId: userIdArbitrary, children: leafText }).map(({ userId, children }): ServiceMLNode => ({ type: 'element', name: 'user', attributes: { userId }, children })),
      fc.record({ attributes: flatActionAttributes, children: inlineNodes }).map(({ attributes, children }): ServiceMLNode => ({ type: 'element', name: 'action', attributes, children })),
    ),
    { maxLength: 8 },
  )
  .map((children) => ({ type: 'root', children: mergeTexts(children) }));
