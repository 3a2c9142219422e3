/** An emoji as the picker searches it: its name (as shown) and its tags (emojibase's, in lower case). */
export interface Searchable {
  label: string;
  tags: readonly string[];
}

/**
 * The emoji whose name or tags hold every word of `query` (lower case, trimmed), the closest first: the
 * emoji named exactly so, then one tagged so, then names that start with it, then names with it as a
 * word, then the rest; in the data's own order within each. Enter picks the first: "rocket" is 🚀, not
 * an astronaut tagged "rocket".
 */
export function searchEmoji<T extends Searchable>(items: readonly T[], query: string): T[] {
  const words = query.split(/\s+/).filter((word) => word !== '');
  const found: Array<{ item: T; index: number; rank: number }> = [];
  items.forEach((item, index) => {
    const name = item.label.toLowerCase();
    if (!words.every((word) => name.includes(word) || item.tags.some((tag) => tag.includes(word)))) return;
    const rank = name === query ? 0 : item.tags.includes(query) ? 1 : name.startsWith(query) ? 2 : name.split(/\s+/).includes(query) ? 3 : 4;
    found.push({ item, index, rank });
  });
  return found.sort((a, b) => a.rank - b.rank || a.index - b.index).map(({ item }) => item);
}
