import { canonicalEmoji } from '@aviary/protocol';
import github from 'emojibase-data/en/shortcodes/github.json' with { type: 'json' };

/**
 * Emoji shortcodes as Slack and GitHub people type them (`:tada:` → 🎉, `:+1:` → 👍): GitHub's list from
 * emojibase. The composer loads this module the first time a `:` word is typed, so its data never
 * weighs on the first page load.
 */
const byCode = new Map<string, string>();
for (const [hexcode, codes] of Object.entries(github as Record<string, string | string[]>)) {
  const unicode = canonicalEmoji(String.fromCodePoint(...hexcode.split('-').map((hex) => Number.parseInt(hex, 16))));
  for (const code of Array.isArray(codes) ? codes : [codes]) byCode.set(code, unicode);
}
const codes = [...byCode.keys()].sort();

export interface Shortcode {
  code: string;
  emoji: string;
}

/** The shortcodes that start with `prefix`, shortest first (`:smile` finds `smile` before `smiley`), at most `limit`. */
export function shortcodesStarting(prefix: string, limit: number): Shortcode[] {
  return codes
    .filter((code) => code.startsWith(prefix))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .slice(0, limit)
    .map((code) => ({ code, emoji: byCode.get(code)! }));
}

/** The text with each known `:code:` as its emoji, outside `code` spans and blocks (where it is meant as typed). */
export function withEmoji(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/:([a-z0-9_+-]+):/g, (whole, code: string) => byCode.get(code) ?? whole)))
    .join('');
}
