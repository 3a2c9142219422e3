/** ServiceML tree → the plain-text form kept with every message, for notifications and search. */

import { mentionName } from './mention.js';
import type { RenderOptions, ServiceMLNode, ServiceMLRoot } from './types.js';

export function renderServiceMLToText(root: ServiceMLRoot, options: RenderOptions): string {
  return renderNodes(root.children, options);
}

function renderNodes(nodes: readonly ServiceMLNode[], options: RenderOptions): string {
  return nodes.map((node) => renderNode(node, options)).join('');
}

function renderNode(node: ServiceMLNode, options: RenderOptions): string {
  if (node.type === 'text') return node.value;
  switch (node.name) {
    case 'a': {
      const text = renderNodes(node.children, options);
      const href = node.attributes.href;
      // A reader of plain text must still see where a link goes, but not twice.
      if (text.trim() === '') return href;
      const shown = text.trim();
      return shown === href || `mailto:${shown}` === href ? text : `${text} (${href})`;
    }
    case 'br':
      return '\n';
    case 'user':
      return `@${mentionName(node, options)}`;
    default:
      return renderNodes(node.children, options);
  }
}
