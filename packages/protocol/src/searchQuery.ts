/**
 * The search syntax of `search.messages` and the web client's search box (docs/search.md), parsed once
 * here so both read a query alike. Pure: what each part means against the store is the server's.
 *
 * Words match as whole words or word beginnings; "quoted phrases" match those words in that order;
 * `-word` or `-"phrase"` excludes. Filters: `in:#channel`, `in:@person` (the direct chat), `from:@person`,
 * `has:link`, `has:file`, `before:`, `after:`, `on:` with a YYYY-MM-DD day. A word is what the index
 * calls one: a letter or digit, then letters, digits and marks; anything else separates words, so `e-mail` is the phrase "e mail".
 */

/** Words in order; `prefix` when the last one may be the beginning of a longer word (a bare word). */
export interface SearchTerm {
  tokens: string[];
  prefix: boolean;
}

export interface SearchQuery {
  include: SearchTerm[];
  exclude: SearchTerm[];
  /** Channel names (without `#`): any of them. */
  inChannels: string[];
  /** People (without `@`) whose direct chat with the searcher is searched: any of them. */
  inPeople: string[];
  /** People (without `@`): messages from any of them. */
  from: string[];
  has: Array<'link' | 'file'>;
  /** Days, YYYY-MM-DD, in the searcher's time zone. */
  before?: string;
  after?: string;
  on?: string;
}

export type SearchQueryParse = { ok: true; query: SearchQuery } | { ok: false; problem: string };

export const SEARCH_LIMITS = { terms: 20, filters: 20, tokensPerTerm: 20, tokenLength: 100 } as const;

/** A letter or digit, then letters, digits and marks: a mark alone is no word (both indexes drop it). */
const wordPattern = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const filterPattern = /^(in|from|has|before|after|on):(.+)$/i;
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The words of a piece of text as the index sees them: lower case, NFC, at most SEARCH_LIMITS.tokensPerTerm. */
export function searchTokens(text: string): string[] {
  const words = text.normalize('NFC').toLowerCase().match(wordPattern) ?? [];
  return words.slice(0, SEARCH_LIMITS.tokensPerTerm).map((word) => word.slice(0, SEARCH_LIMITS.tokenLength));
}

/** Whether `day` is a real calendar day written YYYY-MM-DD. */
export function isSearchDay(day: string): boolean {
  const parts = dayPattern.exec(day);
  if (!parts) return false;
  const [year, month, date] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const check = new Date(Date.UTC(year, month - 1, date));
  return year >= 1970 && check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === date;
}

/**
 * The pieces of a query: quoted phrases (an unclosed quote runs to the end), filters whose value is
 * quoted (`in:#"release notes"`, for a name with spaces) and whitespace-separated words.
 */
function pieces(query: string): Array<{ text: string; quoted: boolean; negated: boolean }> {
  const found: Array<{ text: string; quoted: boolean; negated: boolean }> = [];
  const piece = /(-?)"([^"]*)"?|([a-z]+:[#@]?)"([^"]*)"?|(\S+)/gi;
  for (const match of query.matchAll(piece)) {
    const [, minus, quoted, filter, value, bare] = match;
    if (filter !== undefined) {
      found.push({ text: filter + value, quoted: false, negated: false });
    } else if (bare !== undefined) {
      const negated = bare.length > 1 && bare.startsWith('-');
      found.push({ text: negated ? bare.slice(1) : bare, quoted: false, negated });
    } else {
      found.push({ text: quoted ?? '', quoted: true, negated: minus === '-' });
    }
  }
  return found;
}

function applyFilter(query: SearchQuery, name: string, value: string): string | undefined {
  if (name === 'in') {
    if (value.startsWith('#') && value.length > 1) query.inChannels.push(value.slice(1));
    else if (value.startsWith('@') && value.length > 1) query.inPeople.push(value.slice(1));
    else return `in: takes a channel (in:#general) or a person (in:@ana), not "${value}".`;
  } else if (name === 'from') {
    const person = value.startsWith('@') ? value.slice(1) : value;
    if (person.length === 0) return 'from: takes a person, as from:@ana.';
    query.from.push(person);
  } else if (name === 'has') {
    const what = value.toLowerCase();
    if (what !== 'link' && what !== 'file') return `has: takes link or file, not "${value}".`;
    if (!query.has.includes(what)) query.has.push(what);
  } else {
    if (!isSearchDay(value)) return `${name}: takes a day written YYYY-MM-DD, as ${name}:2026-01-31, not "${value}".`;
    query[name as 'before' | 'after' | 'on'] = value;
  }
  return undefined;
}

/** Parses a query; a problem is a sentence for the person who typed it. Never throws. */
export function parseSearchQuery(text: string): SearchQueryParse {
  const query: SearchQuery = { include: [], exclude: [], inChannels: [], inPeople: [], from: [], has: [] };
  let filters = 0;
  for (const piece of pieces(text)) {
    const filter = piece.quoted || piece.negated ? null : filterPattern.exec(piece.text);
    if (filter) {
      filters += 1;
      if (filters > SEARCH_LIMITS.filters) return { ok: false, problem: `A query may hold at most ${SEARCH_LIMITS.filters} filters.` };
      const problem = applyFilter(query, (filter[1] ?? '').toLowerCase(), filter[2] ?? '');
      if (problem) return { ok: false, problem };
      continue;
    }
    const tokens = searchTokens(piece.text);
    if (tokens.length === 0) continue;
    const terms = piece.negated ? query.exclude : query.include;
    terms.push({ tokens, prefix: !piece.quoted });
    if (query.include.length + query.exclude.length > SEARCH_LIMITS.terms) {
      return { ok: false, problem: `A query may hold at most ${SEARCH_LIMITS.terms} words and phrases.` };
    }
  }
  const narrows = query.include.length + query.inChannels.length + query.inPeople.length + query.from.length + query.has.length > 0;
  if (!narrows && !query.before && !query.after && !query.on) {
    return { ok: false, problem: 'Give at least one word, phrase or filter to search for (an excluded word alone would match almost everything).' };
  }
  return { ok: true, query };
}
