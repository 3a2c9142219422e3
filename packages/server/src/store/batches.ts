/**
 * Parameters one statement may carry: SQLite allows 32,766 and PostgreSQL 65,535; this stays below both,
 * with room for the statement's other parameters.
 */
export const PARAMETERS_PER_STATEMENT = 30_000;

/**
 * `items` in slices small enough for one statement each, when every item binds `parametersEach`
 * parameters (an `in` list: 1; a row inserted: its columns). Never an empty slice.
 */
export function inBatches<T>(items: readonly T[], parametersEach: number, perStatement = PARAMETERS_PER_STATEMENT): T[][] {
  const size = Math.max(1, Math.floor(perStatement / parametersEach));
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
