/** ServiceML tree → source. Parsing the output gives the same tree back (a property test checks it). */

import type { ServiceMLElement, ServiceMLNode, ServiceMLRoot } from './types.js';

export function serializeServiceML(root: ServiceMLRoot): string {
  return `<serviceml>${serializeNodes(root.children)}</serviceml>`;
}

function serializeNodes(nodes: readonly ServiceMLNode[]): string {
  return nodes.map((node) => (node.type === 'text' ? escapeText(node.value) : serializeElement(node))).join('');
}

function serializeElement(element: ServiceMLElement): string {
  const attributes = Object.entries(element.attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
  if (element.name === 'br') return `<br${attributes}/>`;
  return `<${element.name}${attributes}>${serializeNodes(element.children)}</${element.name}>`;
}

const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Tabs and line breaks as references, so that XML parsers that normalise attribute whitespace keep them. */
const escapeAttribute = (value: string): string =>
  escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
