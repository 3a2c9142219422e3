import { checkUrl } from '@aviary/serviceml';
import MarkdownIt from 'markdown-it';

/**
 * Message text as people type it in chat, rendered by markdown-it (CommonMark): bold, italic,
 * ~~strikethrough~~, `code`, fenced code blocks, quotes, lists, and links, typed or found in the text.
 * As safe as ServiceML: raw HTML is never passed through (`html: false` escapes it), a link is one only
 * when ServiceML's own check accepts its URL (absolute http, https or mailto: no `javascript:`, no other
 * scheme an installed program might answer, no relative path), and images are off (no picture loads
 * from a URL someone typed). A single newline is a line break, as in every chat.
 * The text itself is what the server stores and `chat.fetchMessages` returns; only the page renders it.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false }).disable(['image', 'heading', 'lheading', 'table', 'hr']);

markdown.validateLink = (url) => checkUrl(url, ['http', 'https', 'mailto']).ok;

const renderToken = markdown.renderer.renderToken.bind(markdown.renderer);
// Links leave the page: a new tab, with neither the opener nor the referrer.
markdown.renderer.rules.link_open = (tokens, index, options) => {
  tokens[index]!.attrSet('target', '_blank');
  tokens[index]!.attrSet('rel', 'noopener noreferrer nofollow');
  return renderToken(tokens, index, options);
};

/**
 * `@channel` and `@here` as the server reads them (after the start, a space, `(` or `>`, as words), shown
 * as mentions: in a channel they notify its members. Code, which is not text tokens, is left alone.
 */
const BROADCAST = /(^|[\s(>]|&gt;)(@(?:channel|here))(?![\w-])/g;
markdown.renderer.rules.text = (tokens, index) => markdown.utils.escapeHtml(tokens[index]!.content).replace(BROADCAST, '$1<span class="broadcast-mention">$2</span>');

/** The HTML of a message's text: every character of the text escaped but the Markdown it uses. */
export function renderMarkdown(text: string): string {
  return markdown.render(text);
}
