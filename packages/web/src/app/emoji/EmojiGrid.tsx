import { canonicalEmoji } from '@aviary/protocol';
import data from 'emojibase-data/en/compact.json';
import { useDeferredValue, useMemo, useState, type KeyboardEvent } from 'react';
import { searchEmoji, type Searchable } from './emojiSearch';

/**
 * The emoji to pick from, with search (Enter picks the first found; the arrows move between emoji): loaded on demand (EmojiPicker imports this module lazily), so
 * the data of ~1,900 native emoji never weighs on the first page load. Native characters, no images.
 */
const GROUPS: ReadonlyArray<[number, string]> = [
  [0, 'Smileys & emotion'],
  [1, 'People & body'],
  [3, 'Animals & nature'],
  [4, 'Food & drink'],
  [5, 'Travel & places'],
  [6, 'Activities'],
  [7, 'Objects'],
  [8, 'Symbols'],
  [9, 'Flags'],
];

interface Emoji extends Searchable {
  unicode: string;
  group: number;
}

const emoji: Emoji[] = data
  .filter((item) => item.group !== undefined && item.group !== 2)
  .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
  .map((item) => ({ unicode: canonicalEmoji(item.unicode), label: item.label, group: item.group!, tags: (item.tags ?? []).map((tag) => tag.toLowerCase()) }));
const labelOf = new Map(emoji.map((item) => [item.unicode, item.label]));

export default function EmojiGrid({ recent, onPick }: { recent: string[]; onPick: (emoji: string) => void }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim().toLowerCase());
  const found = useMemo(() => (deferred === '' ? undefined : searchEmoji(emoji, deferred)), [deferred]);
  const button = (unicode: string, label: string) => (
    <button key={unicode} type="button" className="emoji-choice" title={label} aria-label={label} onClick={() => onPick(unicode)}>
      {unicode}
    </button>
  );
  const section = (title: string, items: Array<{ unicode: string; label: string }>) =>
    items.length > 0 && (
      <section key={title} className="emoji-section" aria-label={title}>
        <h3>{title}</h3>
        <div className="emoji-grid">{items.map((item) => button(item.unicode, item.label))}</div>
      </section>
    );
  return (
    <div className="emoji-picker" onKeyDown={moveAmongEmoji}>
      <input
        type="search"
        className="emoji-search"
        placeholder="Search emoji"
        aria-label="Search emoji"
        value={query}
        data-autofocus
        autoFocus
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          // A search field's own Escape would only clear it: one Escape closes the picker, as everywhere.
          if (event.key === 'Escape') {
            event.preventDefault();
            event.currentTarget.closest('dialog')?.close();
            return;
          }
          const first = found?.[0];
          if (event.key !== 'Enter' || !first) return;
          event.preventDefault();
          onPick(first.unicode);
        }}
      />
      <div className="emoji-scroll">
        {found ? (
          found.length > 0 ? section('Search results', found.slice(0, 200)) : <p className="picker-empty">No emoji match “{query}”.</p>
        ) : (
          <>
            {section('Recently used', recent.map((unicode) => ({ unicode, label: labelOf.get(unicode) ?? unicode })))}
            {GROUPS.map(([group, title]) => section(title, emoji.filter((item) => item.group === group)))}
          </>
        )}
      </div>
    </div>
  );
}

/**
 * The arrows move between emoji as they are laid out (Down from the search box to the first one), so the
 * keyboard need not Tab through hundreds of buttons.
 */
function moveAmongEmoji(event: KeyboardEvent<HTMLDivElement>) {
  const steps: Record<string, 'left' | 'right' | 'up' | 'down'> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };
  const direction = steps[event.key];
  if (!direction) return;
  const choices = [...event.currentTarget.querySelectorAll<HTMLElement>('.emoji-choice')];
  const at = choices.indexOf(document.activeElement as HTMLElement);
  if (at < 0) {
    if (direction !== 'down' || choices.length === 0) return;
    event.preventDefault();
    return choices[0]!.focus();
  }
  event.preventDefault();
  if (direction === 'left' || direction === 'right') return choices[at + (direction === 'left' ? -1 : 1)]?.focus();
  const here = choices[at]!.getBoundingClientRect();
  const rows = direction === 'down' ? choices.slice(at + 1) : choices.slice(0, at).reverse();
  const nextRow = rows.find((choice) => (direction === 'down' ? choice.getBoundingClientRect().top > here.top : choice.getBoundingClientRect().top < here.top));
  if (!nextRow) return;
  const rowTop = nextRow.getBoundingClientRect().top;
  const inRow = rows.filter((choice) => choice.getBoundingClientRect().top === rowTop);
  const closest = inRow.reduce((best, choice) =>
    Math.abs(choice.getBoundingClientRect().left - here.left) < Math.abs(best.getBoundingClientRect().left - here.left) ? choice : best,
  );
  closest.focus();
}
