import data from 'emojibase-data/en/compact.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { searchEmoji } from '../src/app/emoji/emojiSearch.js';

/** The picker's search over the real data: the emoji named as typed comes first, so that Enter picks it. */
const emoji = data.filter((item) => item.group !== undefined && item.group !== 2).map((item) => ({ unicode: item.unicode, label: item.label, tags: (item.tags ?? []).map((tag) => tag.toLowerCase()) }));
const first = (query: string) => searchEmoji(emoji, query)[0]?.unicode;

describe('searchEmoji', () => {
  it('puts the emoji named exactly so first, before those only tagged or named with it', () => {
    expect(first('rocket')).toBe('🚀');
    expect(first('fire')).toBe('🔥');
    expect(first('tada')).toBe('🎉');
    expect(searchEmoji(emoji, 'rocket').map((item) => item.label)).toEqual(expect.arrayContaining(['astronaut']));
  });

  it('keeps every word of the query, in any field, and the data’s order among equals', () => {
    expect(searchEmoji(emoji, 'thumbs up').map((item) => item.label)[0]).toBe('thumbs up');
    expect(searchEmoji(emoji, 'flag japan').map((item) => item.label)).toEqual(['crossed flags', 'flag: Japan']);
    expect(searchEmoji(emoji, 'no such emoji')).toEqual([]);
    const plain = [{ label: 'b thing', tags: [] }, { label: 'a thing', tags: [] }];
    expect(searchEmoji(plain, 'thing')).toEqual(plain);
  });
});
