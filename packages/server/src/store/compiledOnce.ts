import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { prepare } from './preparedStatements.js';
import { executeCompiled } from './sqliteGroupCommit.js';

interface Compiled {
  query: CompiledQuery;
  /** For each parameter of `query`: the name of the value that fills it, or undefined for a constant. */
  slots: Array<string | undefined>;
}

/**
 * A hot query built and compiled by Kysely once per store, then run again with new values. Building and
 * compiling (frozen operation nodes, visitors, parsers) costs more than SQLite takes to run a small query.
 * Each is a hot statement (preparedStatements.ts): a named prepared statement on PostgreSQL, parsed once per
 * connection; on SQLite its rows are read as arrays.
 *
 * `build` is called once, with a stand-in for each value; every value must reach the SQL as a plain
 * parameter (a comparison or an inserted value), never change the query's shape. Every later call must
 * name the same values. It is checked when compiled.
 */
export function compiledOnce<P extends object, R>(build: (db: Kysely<Database>, params: P) => Compilable<R>) {
  // Keyed by the store's adapter, which its transactions share: one compilation per store and dialect.
  const compiledByStore = new WeakMap<object, Compiled>();
  return async (db: Kysely<Database>, params: P): Promise<R[]> => {
    const store = db.getExecutor().adapter;
    let compiled = compiledByStore.get(store);
    if (!compiled) {
      compiled = compile(build, db, params);
      compiledByStore.set(store, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((name, i) => (name === undefined ? query.parameters[i] : (params as Record<string, unknown>)[name]));
    const result = await executeCompiled<R>(db, { ...query, parameters });
    return result.rows;
  };
}

function compile<P extends object, R>(build: (db: Kysely<Database>, params: P) => Compilable<R>, db: Kysely<Database>, params: P): Compiled {
  const names = Object.keys(params);
  const standIns = Object.fromEntries(names.map((name) => [name, `\u0000compiledOnce:${name}`])) as P;
  const query = build(db, standIns).compile();
  prepare(query.sql);
  const slots = query.parameters.map((value) => names.find((name) => (standIns as Record<string, unknown>)[name] === value));
  const unused = names.filter((name) => !slots.includes(name));
  if (unused.length > 0) throw new Error(`compiledOnce: ${unused.join(', ')} did not become a query parameter`);
  return { query, slots };
}
