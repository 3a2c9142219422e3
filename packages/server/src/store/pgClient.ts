import pg from 'pg';
import { preparedName } from './preparedStatements.js';

type Query = (...args: unknown[]) => unknown;
type Callback = (error: Error | null, result: unknown) => void;

/** PostgreSQL's refusal to run a statement prepared before its tables' columns changed. */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * The store's PostgreSQL client, which the pool makes. Two things differ from node-postgres's own:
 *
 * - A query asked for a promise (as Kysely asks) runs with a callback, the promise made here. The
 *   promise node-postgres makes keeps every query's result alive until the next full collection: on a
 *   page of a hundred messages the young generation's collections took 4 to 6 ms instead of 0.5, every
 *   few dozen requests, most of a request's slowest percent.
 * - A query whose text was prepared (preparedStatements.ts) goes by its name, so that the connection
 *   parses it once. When a migration changes what a prepared statement answers (another process
 *   upgrading the database, a `select *` of a table that gained a column), PostgreSQL refuses the old
 *   statement: this connection prepares it again under a new name, and runs it again unless the refusal
 *   broke a transaction.
 */
export class StoreClient extends pg.Client {
  readonly #renamed = new Map<string, string>();
  #renames = 0;

  override query(...args: unknown[]): never {
    const [text, values, callback] = args;
    const run = super.query as unknown as Query;
    const wantsPromise = typeof text === 'string' && (values === undefined || Array.isArray(values)) && callback === undefined;
    if (!wantsPromise) return run.apply(this, args) as never;
    const once = (name: string | undefined) =>
      new Promise((resolve, reject) => {
        const done: Callback = (error, result) => (error ? reject(error) : resolve(result));
        run.call(this, name === undefined ? { text, values } : { name, text, values }, done);
      });
    const name = preparedName(text);
    if (name === undefined) return once(undefined) as never;
    return once(this.#renamed.get(text) ?? name).catch((error: { code?: string }) => {
      if (error?.code !== RESULT_TYPE_CHANGED) throw error;
      const renamed = `${name}_${++this.#renames}`;
      this.#renamed.set(text, renamed);
      return once(renamed).catch(() => {
        throw error;
      });
    }) as never;
  }
}
