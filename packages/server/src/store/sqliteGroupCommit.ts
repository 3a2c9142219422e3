import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { preparedName } from './preparedStatements.js';

/** A database connection as this driver uses it: `prepare` may answer from a statement cache. */
export interface SqliteConnection {
  prepare(sqlText: string): SQLite.Statement;
  readonly inTransaction: boolean;
  close(): void;
}

export interface GroupCommitOptions {
  /**
   * Opens the connection that writes (and runs every transaction), with no busy timeout of its own: the
   * driver waits for another connection's write lock itself (#beginImmediate).
   */
  writer: () => SqliteConnection;
  /** Opens a second connection on the same file for reads outside transactions. */
  reader: () => SqliteConnection;
  /** A batch commits once it holds this many members, even if more are waiting. */
  maxBatch?: number;
}

/**
 * SQLite on one connection runs one transaction at a time, and each COMMIT appends to the WAL — the
 * largest single cost of a small write. This dialect lets the transactions (and lone writes) that meet
 * on the connection within one turn of the event loop share one BEGIN … COMMIT:
 *
 * - each caller's transaction is a SAVEPOINT inside the shared one; a failed caller rolls back to its
 *   savepoint only. The first caller of a shared transaction needs none (two statements fewer, the
 *   whole cost of a lone send's transaction): until it ends it holds the connection, so nothing else is
 *   in the shared transaction yet, and its failure rolls all of it back;
 * - the shared transaction commits once the event loop has gone round (setImmediate), so requests
 *   that arrived together join it, or when it has `maxBatch` members;
 * - every caller's `transaction().execute()` (and lone write) resolves only after the shared COMMIT
 *   succeeded; if the COMMIT fails, or SQLite abandons the shared transaction, all of them reject.
 *
 * Reads outside a transaction go to a second connection, which sees only committed data: they neither
 * wait for the writer nor see a batch's uncommitted rows.
 */
export function groupCommitSqliteDialect(options: GroupCommitOptions): Dialect {
  const driver = new GroupCommitDriver(options);
  return {
    createAdapter: () => {
      const adapter = new SqliteAdapter();
      directDrivers.set(adapter, driver);
      return adapter;
    },
    createDriver: () => driver,
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

/** Group-commit drivers by the adapter of their Kysely instance, which its transactions share. */
const directDrivers = new WeakMap<object, GroupCommitDriver>();

/**
 * Runs an already compiled query on `db` (a Kysely instance or one of its transactions), straight on
 * the group-commit driver when `db` runs on one: Kysely's executor, connection providers and plugins
 * (there are none) cost more than SQLite takes to run a small query. The outcome is the same: inside a
 * transaction the query joins it; outside, a read goes to the reader and a write to its batch.
 */
export function executeCompiled<R>(db: Kysely<any>, query: CompiledQuery): Promise<QueryResult<R>> {
  const driver = directDrivers.get(db.getExecutor().adapter);
  if (driver === undefined) return db.executeQuery<R>(query);
  return db.isTransaction ? driver.executeInTransaction<R>(query) : driver.execute<R>(new Handle(driver), query);
}

const MEMBER = 'group_commit_member';

/** How long a batch waits for the write lock another connection holds (the CLI beside a running server) before it fails. */
export const WRITE_LOCK_WAIT_MS = 5_000;

class Batch {
  members = 0;
  commitDue = false;
  /** Why SQLite rolled the shared transaction back before it could commit. */
  failure: unknown;
  readonly committed: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Members that rolled back do not wait for the commit; a failure nobody awaits is not unhandled.
    this.committed.catch(() => undefined);
  }
}

/** What Kysely holds between acquiring and releasing a connection: the writer is locked lazily. */
class Handle implements DatabaseConnection {
  holdsLock = false;
  /** The batch this handle's transaction is a member of, while it is open. */
  batch: Batch | undefined;
  /** Whether its transaction is a savepoint (else it opened the shared transaction, alone in it). */
  savepoint = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, compiledQuery);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by the group-commit SQLite driver');
  }
}

class GroupCommitDriver implements Driver {
  #writer!: SqliteConnection;
  #reader!: SqliteConnection;
  #locked = false;
  /** The handle holding the writer: while a transaction is open, the one whose callback is running. */
  #holder: Handle | undefined;
  #waiting: Array<() => void> = [];
  #batch: Batch | undefined;
  readonly #maxBatch: number;

  constructor(private readonly options: GroupCommitOptions) {
    this.#maxBatch = options.maxBatch ?? 100;
  }

  async init(): Promise<void> {
    this.#writer = this.options.writer();
    this.#reader = this.options.reader();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Handle(this);
  }

  async releaseConnection(handle: Handle): Promise<void> {
    if (handle.holdsLock) this.#unlock(handle);
  }

  async beginTransaction(handle: Handle): Promise<void> {
    await this.#lock(handle);
    const batch = await this.#joinBatch();
    handle.savepoint = batch.members > 1;
    if (handle.savepoint) this.#control(`savepoint ${MEMBER}`);
    handle.batch = batch;
  }

  async commitTransaction(handle: Handle): Promise<void> {
    const batch = this.#liveBatchOf(handle);
    if (handle.savepoint) this.#control(`release ${MEMBER}`);
    handle.batch = undefined;
    // Let the next caller in before waiting: the commit happens only once the connection is free.
    this.#unlock(handle);
    await batch.committed;
  }

  async rollbackTransaction(handle: Handle): Promise<void> {
    const batch = handle.batch;
    handle.batch = undefined;
    if (batch !== this.#batch || batch === undefined) return; // the shared transaction is gone already
    try {
      if (handle.savepoint) {
        this.#control(`rollback to ${MEMBER}`);
        this.#control(`release ${MEMBER}`);
      } else {
        // Alone in the shared transaction: it goes, and the next caller opens another.
        this.#batch = undefined;
        this.#control('rollback');
        batch.resolve();
      }
    } catch (error) {
      this.#abandon(batch, error);
    }
  }

  async destroy(): Promise<void> {
    if (this.#batch && !this.#locked) this.#commit();
    this.#reader?.close();
    this.#writer?.close();
  }

  /** A statement: in a transaction on the writer; a read outside one on the reader; a lone write as a batch member. */
  async execute<R>(handle: Handle, query: CompiledQuery): Promise<QueryResult<R>> {
    if (handle.batch) {
      this.#liveBatchOf(handle);
      return this.#runOnWriter<R>(query);
    }
    if (this.#writer.prepare(query.sql).readonly) return run<R>(this.#reader.prepare(query.sql), query);
    await this.#lock(handle);
    let batch: Batch;
    let result: QueryResult<R>;
    try {
      batch = await this.#joinBatch();
      result = this.#runOnWriter<R>(query);
    } finally {
      this.#unlock(handle);
    }
    await batch.committed;
    return result;
  }

  /**
   * A statement of the transaction now open. Only one is open at a time, and it holds the writer from
   * BEGIN to COMMIT, so the holder of the lock is the caller's.
   */
  async executeInTransaction<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const handle = this.#holder;
    if (handle?.batch === undefined) throw new Error('executeInTransaction: no transaction is open');
    return this.execute<R>(handle, query);
  }

  #runOnWriter<R>(query: CompiledQuery): QueryResult<R> {
    try {
      return run<R>(this.#writer.prepare(query.sql), query);
    } catch (error) {
      // Some errors (I/O, a full disk) make SQLite roll back the whole transaction, not only the statement.
      if (this.#batch && !this.#writer.inTransaction) this.#abandon(this.#batch, error);
      throw error;
    }
  }

  /** BEGIN, SAVEPOINT, COMMIT…: prepared once like any statement, rather than parsed on every run. */
  #control(sqlText: string): void {
    this.#writer.prepare(sqlText).run();
  }

  #liveBatchOf(handle: Handle): Batch {
    const batch = handle.batch!;
    if (batch !== this.#batch) throw batch.failure;
    return batch;
  }

  async #lock(handle: Handle): Promise<void> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    // Handed over by #unlock without ever being free, so nobody can slip in between.
    this.#locked = true;
    this.#holder = handle;
    handle.holdsLock = true;
  }

  #unlock(handle: Handle): void {
    handle.holdsLock = false;
    this.#holder = undefined;
    if (this.#batch?.commitDue) this.#commit();
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }

  async #joinBatch(): Promise<Batch> {
    let batch = this.#batch;
    if (!batch) {
      await this.#beginImmediate();
      const opened = (batch = this.#batch = new Batch());
      setImmediate(() => {
        opened.commitDue = true;
        if (this.#batch === opened && !this.#locked) this.#commit();
      });
    }
    if (++batch.members >= this.#maxBatch) batch.commitDue = true;
    return batch;
  }

  /**
   * BEGIN IMMEDIATE: the write lock now, so another connection's commit cannot invalidate what the batch
   * reads. While another connection holds it, tried again after a pause, up to WRITE_LOCK_WAIT_MS, without
   * blocking the event loop as SQLite's busy timeout would: the holder may be a batch of this very process
   * (a second store on the file, as the CLI's in tests), which commits only once the event loop goes round.
   */
  async #beginImmediate(): Promise<void> {
    const giveUpAt = Date.now() + WRITE_LOCK_WAIT_MS;
    for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 50)) {
      try {
        this.#control('begin immediate');
        return;
      } catch (error) {
        if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY') || Date.now() >= giveUpAt) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  #commit(): void {
    const batch = this.#batch!;
    this.#batch = undefined;
    try {
      this.#control('commit');
      batch.resolve();
    } catch (error) {
      this.#abandon(batch, error);
    }
  }

  /** The shared transaction cannot commit: roll back what is left of it and fail every member. */
  #abandon(batch: Batch, error: unknown): void {
    if (this.#batch === batch) this.#batch = undefined;
    batch.failure = error;
    if (this.#writer.inTransaction) {
      try {
        this.#control('rollback');
      } catch {
        // Nothing more can be done; the next BEGIN will report the connection's state.
      }
    }
    batch.reject(error);
  }
}

function run<R>(statement: SQLite.Statement, { parameters }: CompiledQuery): QueryResult<R> {
  if (statement.reader) return { rows: readRows<R>(statement, parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

type RowBuilder = (values: unknown[]) => unknown;
/** Each reading statement's builder once it has run, null for one that is not a hot statement. */
const rowBuilders = new WeakMap<SQLite.Statement, { width: number; build: RowBuilder } | null>();

/**
 * A reading statement's rows as objects. better-sqlite3 makes each row object in C++, a property at a time,
 * which for a page of a hundred wide rows costs about what reading them does. The hot statements
 * (compiledOnce's, `prepare`d) are read as arrays instead and made into objects by a function written for
 * the statement's columns (one object literal): about half the time for a page of history. Should the
 * schema change under a cached statement (a migration in the same process), SQLite prepares it again and
 * the row's width tells.
 */
function readRows<R>(statement: SQLite.Statement, parameters: readonly unknown[]): R[] {
  let builder = rowBuilders.get(statement);
  if (builder === undefined) {
    // Asked once a statement: its text, read from better-sqlite3, is a string made anew on each read.
    builder = preparedName(statement.source) === undefined ? null : rowBuilderOf(statement.raw(true));
    rowBuilders.set(statement, builder);
  }
  if (builder === null) return statement.all(parameters) as R[];
  const rows = statement.all(parameters) as unknown[][];
  if (rows.length > 0 && rows[0]!.length !== builder.width) builder = rowBuilderOf(statement);
  return rows.map(builder.build) as R[];
}

function rowBuilderOf(statement: SQLite.Statement) {
  // Each name a string literal; a computed key for `__proto__`, which a literal key would make the prototype.
  const names = statement.columns().map((column) => column.name);
  const key = (name: string) => (name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name));
  const build = new Function('row', `return { ${names.map((name, i) => `${key(name)}: row[${i}]`).join(', ')} };`) as RowBuilder;
  const builder = { width: names.length, build };
  rowBuilders.set(statement, builder);
  return builder;
}
