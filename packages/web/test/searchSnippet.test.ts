import { describe, expect, it } from 'vitest';
import { readableSnippet } from '../src/app/readableSnippet.js';

/** A search result's snippet as a person reads the message: Markdown's markers left out, the matches still marked. */
describe('readableSnippet', () => {
  it('leaves out bold, strike-through and code markers and a link address, part by part', () => {
    const parts = [
      { text: 'Reminder: standup **', match: undefined },
      { text: 'today', match: true as const },
      { text: '** at 10, run `npm test`, ~~not~~ see [the notes](https://example.com/notes)', match: undefined },
    ];
    expect(readableSnippet(parts)).toEqual([
      { text: 'Reminder: standup ', match: undefined },
      { text: 'today', match: true as const },
      { text: ' at 10, run npm test, not see the notes', match: undefined },
    ]);
  });

  it('keeps single stars and underscores, which are as often a star or part of a name', () => {
    const parts = [{ text: '5 * 3 in my_file.txt', match: undefined }];
    expect(readableSnippet(parts)).toEqual(parts);
  });
});
