import type { SearchTerm } from '@aviary/protocol';

/**
 * A parsed query's words in each index's own query language. Tokens hold only letters, digits and marks
 * (searchQuery.ts), so quoting them is enough: no input reaches either engine as syntax.
 */

/** SQLite FTS5: each term a quoted phrase, a bare word's last token a prefix (`"word"*`). */
export function ftsTerm(term: SearchTerm): string {
  return `"${term.tokens.join(' ')}"${term.prefix ? '*' : ''}`;
}

export const ftsAll = (terms: SearchTerm[]): string => terms.map(ftsTerm).join(' AND ');
export const ftsAny = (terms: SearchTerm[]): string => terms.map(ftsTerm).join(' OR ');

/** A term's tokens as tsquery lexemes, a bare word's last token a prefix (`:*`). */
function tsLexemes(term: SearchTerm): string[] {
  const last = term.tokens.length - 1;
  return term.tokens.map((token, i) => `'${token}'${term.prefix && i === last ? ':*' : ''}`);
}

/** PostgreSQL tsquery: the tokens in order (`<->`), a bare word's last token a prefix (`:*`). */
export function tsTerm(term: SearchTerm): string {
  return `(${tsLexemes(term).join(' <-> ')})`;
}

/**
 * The tokens of a term in any order (`&`): the messages that may hold it. The word index answers this
 * from its entries alone; an order (`<->`) it checks on each candidate's positions.
 */
export function tsTokens(term: SearchTerm): string {
  return `(${tsLexemes(term).join(' & ')})`;
}

export const tsAll = (terms: SearchTerm[]): string => terms.map(tsTerm).join(' & ');
export const tsAny = (terms: SearchTerm[]): string => terms.map(tsTerm).join(' | ');

/** A bare word long enough for trigrams: PostgreSQL also finds it inside longer words (docs/search.md). */
export const isPartialWord = (term: SearchTerm): boolean => term.prefix && term.tokens.length === 1 && [...term.tokens[0]].length >= 3;

/** Marks around the matched words in a snippet, from the Private Use Area, split off by splitSnippet. */
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

/** A snippet marked by the index, as the method's parts: the matched ones flagged. */
export function splitSnippet(marked: string): Array<{ text: string; match?: true }> {
  const parts: Array<{ text: string; match?: true }> = [];
  for (const [i, piece] of marked.split(MATCH_START).entries()) {
    const [inside, after] = i === 0 ? [undefined, piece] : splitOnce(piece, MATCH_END);
    if (inside) parts.push({ text: inside, match: true });
    if (after) parts.push({ text: after });
  }
  return parts;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)];
}
