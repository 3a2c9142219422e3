/**
 * How a search on PostgreSQL walks the history newest first (docs/search.md "How a search walks the
 * index"): a query with few matches is searched whole; others first among the newest messages only, in a
 * slice that widens geometrically until the page is full in it, or the slice is the whole history. A
 * query with many matches (common words, a common phrase) fills its page in a small slice, so it never
 * orders all its matches. SQLite walks FTS5's matches newest first instead (searchSqlite.ts) and reads
 * only `largest`: 0 there too searches the whole history at once, which tests compare the walks with.
 */

export interface Slicing {
  /** A query of words with fewer matches than this in the whole index is searched whole, at once. */
  few: number;
  /** A phrase whose words (in any order) the planner expects in fewer messages than this is searched whole, at once (PostgreSQL). */
  phraseFew: number;
  /** Messages in the first slice. */
  first: number;
  /** How many times larger each next slice is. */
  widen: number;
  /** The largest slice before the whole history is searched. */
  largest: number;
}

export const DEFAULT_SLICING: Slicing = { few: 1000, phraseFew: 3000, first: 2000, widen: 8, largest: 128_000 };

/** One step's outcome: the page found in its slice, and whether it is the page (no newer match outside the slice). */
export interface SliceOutcome<Row> {
  rows: Row[];
  complete: boolean;
}

/**
 * Runs `step` on slices of `slicing.first`, then `widen` times more, … messages (undefined: the whole
 * history, which must be complete), until one is complete; returns that page.
 */
export async function widenUntilComplete<Row>(slicing: Slicing, step: (depth: number | undefined) => Promise<SliceOutcome<Row>>): Promise<Row[]> {
  for (let depth = slicing.first; depth <= slicing.largest; depth *= slicing.widen) {
    const outcome = await step(depth);
    if (outcome.complete) return outcome.rows;
  }
  return (await step(undefined)).rows;
}
