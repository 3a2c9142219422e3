/**
 * ServiceML tree → HTML for the web client. Trees normally come from the parser, but they may also be
 * built by hand or loaded from storage, so URLs are checked again here: a link whose href fails the
 * check is rendered as its text only. Every text and attribute value is escaped.
 */

import { mentionName } from './mention.js';
import type { ActionElement, RenderOptions, ServiceMLNode, ServiceMLRoot } from './types.js';
import { checkUrl } from './url.js';

export function renderServiceMLToHtml(root: ServiceMLRoot, options: RenderOptions): string {
  return renderNodes(root.children, options);
}

function renderNodes(nodes: readonly ServiceMLNode[], options: RenderOptions): string {
  return nodes.map((node) => renderNode(node, options)).join('');
}

function renderNode(node: ServiceMLNode, options: RenderOptions): string {
  if (node.type === 'text') return escapeHtml(node.value);
  switch (node.name) {
    case 'a': {
      const href = checkUrl(node.attributes.href, ['http', 'https', 'mailto']);
      const inner = renderNodes(node.children, options);
      return href.ok ? `<a href="${escapeHtml(href.url)}" rel="noopener noreferrer" target="_blank">${inner}</a>` : inner;
    }
    case 'b':
    case 'strong':
    case 'i':
    case 'em':
    case 'u':
      return `<${node.name}>${renderNodes(node.children, options)}</${node.name}>`;
    case 'br':
      return '<br>';
    case 'user':
      return `<span class="sml-mention" data-user-id="${escapeHtml(node.attributes.userId)}">@${escapeHtml(mentionName(node, options))}</span>`;
    case 'action':
      return `<button type="button" class="sml-action"${actionDataAttributes(node)}>${renderNodes(node.children, options)}</button>`;
    default:
      // A hand-built tree may hold names outside the type; show their content, never the element.
      return renderNodes((node as { children?: ServiceMLNode[] }).children ?? [], options);
  }
}

function actionDataAttributes({ attributes }: ActionElement): string {
  const url = attributes.url === undefined ? undefined : checkUrl(attributes.url, ['http', 'https']);
  const data: [string, string | undefined][] = [
    ['data-action-id', attributes.id],
    ['data-action-type', attributes.type],
    ['data-action-url', url?.ok ? url.url : undefined],
    ['data-action-desktop-type', attributes.desktopType],
    ['data-action-mobile-type', attributes.mobileType],
    ['data-action-send-context', attributes.sendContext === undefined ? undefined : String(attributes.sendContext)],
  ];
  return data
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
}

const htmlEscapes: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const HTML_SPECIAL = /[&<>"']/g;

export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (char) => htmlEscapes[char]!);
}
