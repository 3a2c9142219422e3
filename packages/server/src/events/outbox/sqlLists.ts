/**
 * Lists of values bound as statement parameters, shaped so that the number of distinct SQL texts stays
 * small. Kysely writes `in (?, ?, …)` with one placeholder per value, and the store caches prepared
 * statements by their text (a bounded cache the whole server shares): a delivery worker whose lists
 * have every length from 1 to several hundred would fill it with one-off texts and push out everyone
 * else's. So lists are padded to a power of two (repeating a value changes nothing in `in (…)`), and
 * rows are inserted in power-of-two chunks: about ten texts per statement, whatever the lengths.
 */

/** The values, the last repeated up to the next power of two (an empty list stays empty). */
export function paddedList<T>(values: readonly T[]): T[] {
  const padded = [...values];
  if (padded.length === 0) return padded;
  let size = 1;
  while (size < padded.length) size *= 2;
  while (padded.length < size) padded.push(padded[padded.length - 1]);
  return padded;
}

/** Consecutive chunks whose sizes are powers of two (largest first), none larger than `max` (a power of two). */
export function powerOfTwoChunks<T>(values: readonly T[], max: number): T[][] {
  const chunks: T[][] = [];
  let start = 0;
  while (start < values.length) {
    let size = max;
    while (size > values.length - start) size /= 2;
    chunks.push(values.slice(start, start + size));
    start += size;
  }
  return chunks;
}
