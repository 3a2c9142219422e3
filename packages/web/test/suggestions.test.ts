import { describe, expect, it } from 'vitest';
import type { Person } from '../src/api/client.js';
import { shortcodesStarting, withEmoji } from '../src/app/emoji/shortcodes.js';
import { composerMentions, mentionMarkup, suggestionsFor, tokenAtCaret, typedMentions } from '../src/app/suggestions.js';

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

describe('the @ list', () => {
  it('opens after a space, punctuation or Markdown, and not inside an address or a word', () => {
    for (const text of ['@Luc', 'hi @Luc', '(@Luc', '**@Luc', 'hi,@Luc', '"@Luc', '_@Luc', '`@Luc']) {
      expect(tokenAtCaret(text, text.length), text).toEqual({ kind: '@', query: 'Luc', start: text.length - 4 });
    }
    for (const text of ['ann@example', 'café@Luc', 'a@@Luc']) expect(tokenAtCaret(text, text.length), text).toBeUndefined();
  });
});

/** `:` words: emoji by their shortcodes, offered as typed and turned into the emoji when sent whole. */
describe('emoji shortcodes in the composer', () => {
  it('offers the emoji whose shortcodes start with a : word of two letters or more, shortest first', () => {
    expect(tokenAtCaret('great :ta', 9)).toEqual({ kind: ':', query: 'ta', start: 6 });
    expect(tokenAtCaret('great :t', 8)).toBeUndefined();
    expect(tokenAtCaret('at 10:30', 8)).toBeUndefined();
    const found = suggestionsFor(tokenAtCaret(':tada', 5)!, [], [], false, shortcodesStarting);
    expect(found[0]).toMatchObject({ kind: 'emoji', id: 'tada', emoji: '🎉', label: '🎉 :tada:' });
    expect(shortcodesStarting('smile', 2).map((item) => item.code)).toEqual(['smile', 'smiley']);
    expect(suggestionsFor(tokenAtCaret(':tada', 5)!, [], [], false)).toEqual([]);
  });

  it('turns each known :code: typed whole into its emoji, and leaves code and unknown ones as typed', () => {
    expect(withEmoji('ship it :tada: :+1: :no_such_code:')).toBe('ship it 🎉 👍 :no_such_code:');
    expect(withEmoji('run `echo :tada:` then :heart:')).toBe('run `echo :tada:` then ❤️');
  });
});

describe('the people a message of the composer names', () => {
  const bob = { userId: 'u:bbbbbbbbbbbbbbbb', label: 'Bob Baker' };
  const odd = { userId: 'u:cccccccccccccccc', label: 'A & <B> "C"' };

  it('reads back what mentionMarkup made, across lines and with characters to escape', () => {
    const text = '@Bob Baker run `npm test`\n> cc @A & <B> "C" and @Bob Baker';
    expect(composerMentions(mentionMarkup(text, [bob, odd])!, text)).toEqual([bob, odd, bob]);
    expect(composerMentions('<serviceml>no one</serviceml>', 'no one')).toEqual([]);
  });

  it('refuses ServiceML the composer does not make, or that says other than the text', () => {
    const text = '@Bob Baker hello';
    const markup = mentionMarkup(text, [bob])!;
    expect(composerMentions(markup, '@Bob Baker hello!')).toBeUndefined();
    expect(composerMentions('<serviceml><b>bold</b> words</serviceml>', 'bold words')).toBeUndefined();
    expect(composerMentions('<serviceml><user userId="u:bbbbbbbbbbbbbbbb">Bob</user></serviceml>', 'Bob')).toBeUndefined();
    expect(composerMentions('<serviceml><a href="https://example.com">x</a></serviceml>', 'x')).toBeUndefined();
    expect(composerMentions('<serviceml><unclosed', 'x')).toBeUndefined();
  });
});

describe('names typed out after @, not picked from the list', () => {
  const person = (id: string, firstName: string, lastName: string, isBot = false) => ({ id, firstName, lastName, ...(isBot ? { isBot: true } : {}) }) as unknown as Person;
  const people = [person('u:priya', 'Priya', 'Patel'), person('u:sam1', 'Sam', 'Stone'), person('u:sam2', 'Sam', 'Reed'), person('u:bot', 'Deploy', 'Bot', true)];

  it('mention a full name, or a first name only one person has, whole and in any case', () => {
    expect(typedMentions('@priya please look', people, [])).toEqual([{ userId: 'u:priya', label: 'priya' }]);
    expect(typedMentions('thanks @Priya Patel!', people, [])).toEqual([{ userId: 'u:priya', label: 'Priya Patel' }]);
    expect(typedMentions('@Sam Reed and @sam', people, [])).toEqual([{ userId: 'u:sam2', label: 'Sam Reed' }]);
    expect(mentionMarkup('@priya please look', typedMentions('@priya please look', people, []))).toBe('<serviceml><user userId="u:priya">@priya</user> please look</serviceml>');
  });

  it('leave alone a longer word, an email address, a bot and someone already picked', () => {
    for (const text of ['@priyanka', 'mail priya@priya.example', '@Deploy Bot', 'no mention']) expect(typedMentions(text, people, []), text).toEqual([]);
    expect(typedMentions('@Priya Patel', people, [{ userId: 'u:priya', label: 'Priya Patel' }])).toEqual([]);
  });
});
