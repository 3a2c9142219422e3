/**
 * The real time, except that no two readings are equal: each is at least a millisecond after the one
 * before. For tests where the order of two changes must show in their timestamps (who joined first,
 * which app was installed first), without sleeping between them.
 */
export function increasingClock(): () => number {
  let last = 0;
  return () => (last = Math.max(Date.now(), last + 1));
}
