import pg from 'pg';

/**
 * The store's hot statements (compiledOnce's), which each dialect runs its faster way. On PostgreSQL, a
 * named prepared statement: sent unnamed, a statement is parsed and planned on every call, for a page of
 * history most of what PostgreSQL spends on it (0.5 ms of 0.8); named, each connection parses it once. On
 * SQLite, its rows are read as arrays (sqliteGroupCommit.ts's readRows).
 *
 * A statement is named by its text, the same name in every connection; only texts given to `prepare` are.
 */
const names = new Map<string, string>();

/** From now on, `sql` is a hot statement, on every connection of the process. */
export function prepare(sql: string): void {
  if (!names.has(sql)) names.set(sql, `aviary_${names.size + 1}`);
}

export function isPrepared(sql: string): boolean {
  return names.has(sql);
}

type Query = (...args: unknown[]) => unknown;

/** PostgreSQL's refusal to run a statement prepared before its tables' columns changed. */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * The pool's client: a query whose text was prepared goes by its name (node-postgres parses it once per
 * connection). When a migration changes what a prepared statement answers (another process upgrading the
 * database, a `select *` of a table that gained a column), PostgreSQL refuses the old statement: this
 * connection prepares it again under a new name, and runs it again unless the refusal broke a transaction.
 */
export class PreparingClient extends pg.Client {
  readonly #renamed = new Map<string, string>();
  #renames = 0;

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const run = super.query as unknown as Query;
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || !names.has(text)) return run.apply(this, args) as never;
    const named = () => run.call(this, { name: this.#renamed.get(text) ?? names.get(text), text, values }) as Promise<unknown>;
    return named().catch((error: { code?: string }) => {
      if (error?.code !== RESULT_TYPE_CHANGED) throw error;
      this.#renamed.set(text, `${names.get(text)}_${++this.#renames}`);
      return named().catch(() => {
        throw error;
      });
    }) as never;
  }
}
