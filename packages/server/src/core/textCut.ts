/**
 * The first `max` UTF-16 units of `text`, one fewer where the cut would keep half of a surrogate pair (an
 * emoji cut in two is no character, and the store would keep it as U+FFFD).
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
