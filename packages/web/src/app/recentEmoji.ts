/** The emoji a person reacted with lately, newest first, kept in this browser (localStorage) per person. */
const MAX_RECENT = 24;
const DEFAULT_RECENT = ['👍', '❤️', '😂', '🎉', '👀', '🙏'];

const key = (userId: string) => `aviary.recentEmoji.${userId}`;

export function recentEmoji(userId: string): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key(userId)) ?? 'null');
    if (Array.isArray(stored) && stored.every((item) => typeof item === 'string')) return stored.length > 0 ? stored : DEFAULT_RECENT;
  } catch {
    // A value another version wrote, or storage turned off: start again.
  }
  return DEFAULT_RECENT;
}

export function rememberEmoji(userId: string, emoji: string): void {
  const stored = [emoji, ...recentEmoji(userId).filter((item) => item !== emoji)].slice(0, MAX_RECENT);
  try {
    localStorage.setItem(key(userId), JSON.stringify(stored));
  } catch {
    // Storage full or turned off: the picker still works, without its memory.
  }
}
