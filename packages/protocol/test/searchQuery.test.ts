import { describe, expect, it } from 'vitest';
import { isSearchDay, parseSearchQuery, SEARCH_LIMITS, type SearchQuery } from '../src/index.js';

const parsed = (text: string): SearchQuery => {
  const result = parseSearchQuery(text);
  if (!result.ok) throw new Error(`refused: ${result.problem}`);
  return result.query;
};
const problem = (text: string): string => {
  const result = parseSearchQuery(text);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.query)}`);
  return result.problem;
};

describe('parseSearchQuery', () => {
  it('reads bare words as word beginnings, quoted phrases as exact, and -word or -"phrase" as excluded', () => {
    expect(parsed('Café  "release notes" -staging -"to prod"')).toMatchObject({
      include: [
        { tokens: ['café'], prefix: true },
        { tokens: ['release', 'notes'], prefix: false },
      ],
      exclude: [
        { tokens: ['staging'], prefix: true },
        { tokens: ['to', 'prod'], prefix: false },
      ],
    });
  });

  it('splits words where the index does: punctuation and symbols separate, so a hyphenated word is a phrase', () => {
    expect(parsed('e-mail').include).toEqual([{ tokens: ['e', 'mail'], prefix: true }]);
    expect(parsed('AND OR NOT NEAR( * ^x col:umn').include.map((term) => term.tokens)).toEqual([['and'], ['or'], ['not'], ['near'], ['x'], ['col', 'umn']]);
    expect(parsed('"unclosed phrase').include).toEqual([{ tokens: ['unclosed', 'phrase'], prefix: false }]);
    // Composed and decomposed forms are one word.
    expect(parsed('cafe\u0301').include).toEqual(parsed('café').include);
    // Marks alone are no word (the PostgreSQL index would fold them to nothing).
    expect(problem('\u0301\u0301\u0301')).toMatch(/at least one word/);
    expect(parsed('\u0301x').include).toEqual([{ tokens: ['x'], prefix: true }]);
  });

  it('reads the filters, several of a kind meaning any of them', () => {
    expect(parsed('in:#general in:#Random in:@ana from:@bob from:carol has:link HAS:FILE before:2026-01-31 after:2025-12-01 on:2026-01-15')).toEqual({
      include: [],
      exclude: [],
      inChannels: ['general', 'Random'],
      inPeople: ['ana'],
      from: ['bob', 'carol'],
      has: ['link', 'file'],
      before: '2026-01-31',
      after: '2025-12-01',
      on: '2026-01-15',
    });
  });

  it('takes a quoted value for a name with spaces', () => {
    expect(parsed('in:#"Release notes" from:@"Ana Lima" word')).toMatchObject({ include: [{ tokens: ['word'] }], inChannels: ['Release notes'], from: ['Ana Lima'] });
    expect(parsed('notes:"draft"')).toMatchObject({ include: [{ tokens: ['notes', 'draft'] }], inChannels: [] });
  });

  it('keeps a quoted or excluded filter as words', () => {
    expect(parsed('"in:#general" -from:@bob word')).toMatchObject({ include: [{ tokens: ['in', 'general'] }, { tokens: ['word'] }], exclude: [{ tokens: ['from', 'bob'] }], inChannels: [], from: [] });
  });

  it('refuses what it cannot read, in words for the person who typed it', () => {
    expect(problem('in:general')).toMatch(/in: takes a channel/);
    expect(problem('has:image')).toMatch(/has: takes link or file/);
    expect(problem('on:2026-02-30')).toMatch(/YYYY-MM-DD/);
    expect(problem('before:yesterday')).toMatch(/YYYY-MM-DD/);
    expect(problem('from:@')).toMatch(/from: takes a person/);
    expect(problem('-alone')).toMatch(/at least one word/);
    expect(problem('   ')).toMatch(/at least one word/);
    expect(problem('!!! ...')).toMatch(/at least one word/);
    expect(problem(Array(SEARCH_LIMITS.terms + 1).fill('w').join(' '))).toMatch(/at most 20 words/);
    expect(problem(Array(SEARCH_LIMITS.filters + 1).fill('has:link').join(' '))).toMatch(/at most 20 filters/);
  });

  it('bounds the words of a term and their length, and never throws on any input', () => {
    const long = parsed(`"${Array(50).fill('word').join(' ')}" ${'x'.repeat(500)}`);
    expect(long.include[0].tokens).toHaveLength(SEARCH_LIMITS.tokensPerTerm);
    expect(long.include[1].tokens[0]).toHaveLength(SEARCH_LIMITS.tokenLength);
    for (const hostile of ['"', '-', '--', '-"', '\u0000', '\uE000\uE001', 'in:', 'a'.repeat(10_000), '"'.repeat(999), ':::', '\\"\\']) {
      expect(() => parseSearchQuery(hostile)).not.toThrow();
    }
  });

  it('takes only real calendar days', () => {
    expect(isSearchDay('2024-02-29')).toBe(true);
    expect(isSearchDay('2025-02-29')).toBe(false);
    expect(isSearchDay('2026-13-01')).toBe(false);
    expect(isSearchDay('1969-12-31')).toBe(false);
    expect(isSearchDay('2026-1-5')).toBe(false);
  });
});
