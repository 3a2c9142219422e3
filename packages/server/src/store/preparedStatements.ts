/**
 * The store's hot statements (compiledOnce's), which each dialect runs its faster way. On PostgreSQL, a
 * named prepared statement: sent unnamed, a statement is parsed and planned on every call, for a page of
 * history most of what PostgreSQL spends on it (0.5 ms of 0.8); named, each connection parses it once. On
 * SQLite, its rows are read as arrays (sqliteGroupCommit.ts's readRows).
 *
 * A statement is named by its text, the same name in every connection; only texts given to `prepare` are.
 * PostgreSQL's side is the pool's client (pgClient.ts).
 */
const names = new Map<string, string>();

/** The name `sql` runs under, when it was prepared. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}

/** From now on, `sql` is a hot statement, on every connection of the process. */
export function prepare(sql: string): void {
  if (!names.has(sql)) names.set(sql, `aviary_${names.size + 1}`);
}

