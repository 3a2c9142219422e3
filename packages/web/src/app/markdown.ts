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
const markBroadcasts = (escaped: string) => escaped.replace(BROADCAST, '$1<span class="broadcast-mention">$2</span>');

/** A person the message names (its `<user>` ServiceML): `@label` in the text, shown as `@name`. */
export interface NamedPerson {
  userId: string;
  label: string;
  name: string;
}

/** What a rendering is told besides the text: the people it names, their `@label` escaped as in the HTML, longest first. */
type RenderEnv = {
  named: Array<{ escaped: string; html: string }>;
};

markdown.renderer.rules.text = (tokens, index, _options, env) => {
  const escaped = markdown.utils.escapeHtml(tokens[index]!.content);
  const named = (env as Partial<RenderEnv> | undefined)?.named ?? [];
  if (named.length === 0) return markBroadcasts(escaped);
  // Split at the people named, so that their names are never read as @channel or @here.
  const pattern = new RegExp(named.map((person) => markdown.utils.escapeRE(person.escaped)).join('|'), 'g');
  let html = '';
  let last = 0;
  for (const match of escaped.matchAll(pattern)) {
    html += markBroadcasts(escaped.slice(last, match.index)) + named.find((person) => person.escaped === match[0])!.html;
    last = match.index + match[0].length;
  }
  return html + markBroadcasts(escaped.slice(last));
};

/**
 * The HTML of a message's text: every character of the text escaped but the Markdown it uses, and the
 * people it names (`named`, from its ServiceML) marked as mentions with their current names, outside code.
 */
export function renderMarkdown(text: string, named: readonly NamedPerson[] = []): string {
  const escape = markdown.utils.escapeHtml;
  const env: RenderEnv = {
    named: [...named]
      .sort((a, b) => b.label.length - a.label.length)
      .map((person) => ({ escaped: escape(`@${person.label}`), html: `<span class="sml-mention" data-user-id="${escape(person.userId)}">@${escape(person.name)}</span>` })),
  };
  return markdown.render(text, env);
}
