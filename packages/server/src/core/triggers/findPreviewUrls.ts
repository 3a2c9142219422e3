/** A message naming more links than this gets previews looked up for the first ones only. */
export const maxPreviewUrlsPerMessage = 5;

const linkPattern = /\bhttps?:\/\/[^\s<>"'`]+/gi;

// Sentence punctuation after a link belongs to the sentence: "see https://x.test/a." means /a.
const trailingPunctuation = /[.,;:!?'")\]}]+$/;

/**
 * The http and https links in a message's text, in order, each once: what `chat.generateUrlPreview`
 * may be asked about. Links that do not parse as URLs are skipped.
 */
export function findPreviewUrls(text: string): URL[] {
  const urls: URL[] = [];
  const seen = new Set<string>();
  for (const [match] of text.matchAll(linkPattern)) {
    const candidate = withoutTrailingPunctuation(match);
    if (!URL.canParse(candidate)) continue;
    const url = new URL(candidate);
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    urls.push(url);
    if (urls.length === maxPreviewUrlsPerMessage) break;
  }
  return urls;
}

/** Strips sentence punctuation, but keeps a closing bracket whose opening one is inside the link (wiki links). */
function withoutTrailingPunctuation(link: string): string {
  let trimmed = link.replace(trailingPunctuation, '');
  const stripped = link.slice(trimmed.length);
  for (const [open, close] of [['(', ')'], ['[', ']']] as const) {
    if (stripped.startsWith(close) && count(trimmed, open) > count(trimmed, close)) trimmed += close;
  }
  return trimmed;
}

const count = (text: string, character: string): number => text.split(character).length - 1;
