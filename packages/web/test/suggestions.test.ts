import { describe, expect, it } from 'vitest';
import type { Person } from '../src/api/client.js';
import { suggestionsFor, tokenAtCaret } from '../src/app/suggestions.js';

/** The composer's `@` list: people, and in a channel `@channel` and `@here` after them, kept however many people match. */
describe('what the composer suggests after @', () => {
  const person = (id: string, firstName: string, lastName: string) => ({ id, firstName, lastName, isBot: false }) as unknown as Person;
  const people = [person('u:1', 'Chandra', 'Hale'), person('u:2', 'Herb', 'Ash'), ...Array.from({ length: 9 }, (_, index) => person(`u:h${index}`, `Hal${index}`, 'Hill'))];
  const at = (text: string) => tokenAtCaret(text, text.length)!;

  it('offers @channel and @here in a channel, after the people, and not in a direct chat', () => {
    expect(suggestionsFor(at('hi @ch'), people, [], true).map((s) => s.label)).toEqual(['Chandra Hale', '@channel']);
    expect(suggestionsFor(at('hi @ch'), people, [], false).map((s) => s.label)).toEqual(['Chandra Hale']);
    expect(suggestionsFor(at('@here'), people, [], true).map((s) => [s.kind, s.label])).toEqual([['broadcast', '@here']]);
  });

  it('keeps them in a list of at most eight however many people match', () => {
    const labels = suggestionsFor(at('@h'), people, [], true).map((s) => s.label);
    expect(labels).toHaveLength(8);
    expect(labels.at(-1)).toBe('@here');
    expect(labels).not.toContain('@channel');
  });
});
