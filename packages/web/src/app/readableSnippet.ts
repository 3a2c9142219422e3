/** A piece of a search match's snippet: `match` marks the words the query found. */
export interface SnippetPart {
  text: string;
  match?: true | undefined;
}

/**
 * A snippet as a person reads the message, not as it was typed: Markdown's bold, strike-through and code
 * markers (`**`, `__`, `~~`, backticks) and a link's address (`[text](url)` shows its text) are left out,
 * part by part, so that the matched words stay marked. A snippet is cut from the text, so it is not
 * rendered as Markdown: a cut `**` would show anyway. Single `*` and `_` stay (they are as often a star or
 * a name's underscore).
 */
export function readableSnippet<T extends SnippetPart>(parts: readonly T[]): T[] {
  return parts.map((part) => ({ ...part, text: part.text.replace(/\[([^\]\n]*)\]\([^)\s]*\)/g, '$1').replace(/\*\*|__|~~|`+/g, '') }));
}
