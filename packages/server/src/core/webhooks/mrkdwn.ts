import { checkUrl } from '@aviary/serviceml';

/**
 * Slack's mrkdwn, read the way docs/reference/webhooks.md says: `*bold*`, `_italic_`, `~strike~` and
 * `` `code` `` (the last two kept as plain text), ``` fences dropped, `<url|label>` and `<url>` links,
 * `<@U…>`, `<#C…|name>` and `<!here>`-style mentions as plain text, `&amp;` `&lt;` `&gt;` decoded.
 * Each piece comes out twice: as a ServiceML fragment (escaped, valid by construction) and as plain text.
 */
export interface Rendered {
  xml: string;
  plain: string;
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const decodeSlack = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const TOKEN = /<([^<>\n]+)>/g;
const STYLES: Array<[RegExp, string | null]> = [
  [/(^|[^A-Za-z0-9*])\*([^*\n<>]+)\*(?![A-Za-z0-9*])/g, 'b'],
  [/(^|[^A-Za-z0-9_])_([^_\n<>]+)_(?![A-Za-z0-9_])/g, 'i'],
  [/(^|[^A-Za-z0-9~])~([^~\n<>]+)~(?![A-Za-z0-9~])/g, null],
  [/(^|[^A-Za-z0-9`])`([^`\n<>]+)`(?![A-Za-z0-9`])/g, null],
];

/** Plain text (mrkdwn: false, or a plain_text object): escaped, line breaks kept. */
export function plainText(text: string): Rendered {
  return { xml: lines(escapeXml(text)), plain: text };
}

/** A mrkdwn string. */
export function mrkdwn(source: string): Rendered {
  const text = source.replace(/```\n?/g, '');
  let xml = '';
  let plain = '';
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const styled = styledText(text.slice(last, match.index));
    xml += styled.xml;
    plain += styled.plain;
    const token = slackToken(match[1]);
    xml += token.xml;
    plain += token.plain;
    last = match.index + match[0].length;
  }
  const rest = styledText(text.slice(last));
  return { xml: lines(xml + rest.xml), plain: plain + rest.plain };
}

function styledText(segment: string): Rendered {
  let xml = escapeXml(decodeSlack(segment));
  let plain = decodeSlack(segment);
  for (const [pattern, tag] of STYLES) {
    xml = xml.replace(pattern, (_all, before: string, inner: string) => (tag ? `${before}<${tag}>${inner}</${tag}>` : `${before}${inner}`));
    plain = plain.replace(pattern, (_all, before: string, inner: string) => `${before}${inner}`);
  }
  return { xml, plain };
}

/** `<…>`: a link, or a mention or special word shown as its label. */
function slackToken(body: string): Rendered {
  const bar = body.indexOf('|');
  const target = decodeSlack(bar < 0 ? body : body.slice(0, bar));
  const label = bar < 0 ? undefined : decodeSlack(body.slice(bar + 1));
  const sigil = target[0];
  if (sigil === '@' || sigil === '#') return asText(label ?? target);
  if (sigil === '!') {
    const word = target.slice(1).split('^')[0];
    return asText(label ?? `@${word}`);
  }
  const check = checkUrl(target, ['http', 'https', 'mailto']);
  if (!check.ok) return asText(label ?? target);
  const shown = label ?? target;
  return { xml: `<a href="${escapeXml(check.url)}">${escapeXml(shown)}</a>`, plain: label ? `${label} (${target})` : target };
}

const asText = (text: string): Rendered => ({ xml: escapeXml(text), plain: text });

const lines = (xml: string): string => xml.replace(/\r?\n/g, '<br/>');

/** A link to `url` labelled `label`, or the label alone when the URL is not one ServiceML takes. */
export function link(url: unknown, label: string): Rendered {
  const check = typeof url === 'string' ? checkUrl(url, ['http', 'https']) : undefined;
  if (!check?.ok) return asText(label);
  return { xml: `<a href="${escapeXml(check.url)}">${escapeXml(label)}</a>`, plain: `${label} (${check.url})` };
}

export const bold = (r: Rendered): Rendered => ({ xml: `<b>${r.xml}</b>`, plain: r.plain });

export function join(parts: Rendered[], xmlSeparator: string, plainSeparator: string): Rendered {
  return { xml: parts.map((p) => p.xml).join(xmlSeparator), plain: parts.map((p) => p.plain).join(plainSeparator) };
}
