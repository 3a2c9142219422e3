import { canonicalEmoji, isEmoji } from '@aviary/protocol';
import { createRequire } from 'node:module';

/** Skin tones as Slack names them (`thumbsup::skin-tone-3`) and the modifier each adds. */
const SKIN_TONES: Record<string, string> = { 'skin-tone-2': '\u{1F3FB}', 'skin-tone-3': '\u{1F3FC}', 'skin-tone-4': '\u{1F3FD}', 'skin-tone-5': '\u{1F3FE}', 'skin-tone-6': '\u{1F3FF}' };

let byName: Map<string, string> | undefined;

/**
 * Slack's emoji names (those of iamcal's emoji-data, which Slack uses), from emojibase's list of them:
 * read once, when a Slack export with reactions is imported.
 */
function names(): Map<string, string> {
  if (byName) return byName;
  const list = createRequire(import.meta.url)('emojibase-data/en/shortcodes/iamcal.json') as Record<string, string | string[]>;
  byName = new Map();
  for (const [hexcode, shortcodes] of Object.entries(list)) {
    const emoji = String.fromCodePoint(...hexcode.split('-').map((hex) => Number.parseInt(hex, 16)));
    for (const name of Array.isArray(shortcodes) ? shortcodes : [shortcodes]) byName.set(name, emoji);
  }
  return byName;
}

/** The native emoji of a Slack reaction's name (`tada`, `+1::skin-tone-2`); undefined for a team's custom emoji. */
export function slackEmoji(name: string): string | undefined {
  const [base = '', tone] = name.split('::');
  const emoji = names().get(base);
  if (emoji === undefined) return undefined;
  const toned = canonicalEmoji(tone !== undefined && SKIN_TONES[tone] ? emoji + SKIN_TONES[tone] : emoji);
  return isEmoji(toned) ? toned : canonicalEmoji(emoji);
}
