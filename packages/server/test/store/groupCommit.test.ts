import SQLite from 'better-sqlite3';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executeCompiled } from '../../src/store/sqliteGroupCommit.js';
import { sqliteFile } from '../../src/store/store.js';
import { createTestStore, type TestStore } from '../helpers/store.js';

/** SQLite's group commit (src/store/sqliteGroupCommit.ts), seen from the callers' side and from another connection. */
describe('SQLite group commit', () => {
  let testStore: TestStore;
  let other: SQLite.Database;
  const db = () => testStore.store.db;
  /** Names in `things` as another process sees them: committed rows only. */
  const committed = () => (other.prepare('select name from things order by name').all() as Array<{ name: string }>).map((row) => row.name);

  beforeEach(async () => {
    testStore = await createTestStore('sqlite');
    await sql`create table things (name text primary key)`.execute(db());
    other = new SQLite(sqliteFile(testStore.dataDir), { readonly: true });
  });

  afterEach(async () => {
    other.close();
    await testStore.destroy();
  });

  const insert = (name: string) => db().transaction().execute((tx) => tx.insertInto('things' as never).values({ name } as never).execute());

  it('commits concurrent transactions together; each resolves only once its rows are committed', async () => {
    const seenAtResolve: string[][] = [];
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => insert(name).then(() => seenAtResolve.push(committed()))));
    expect(seenAtResolve).toEqual(Array(4).fill(['a', 'b', 'c', 'd']));
  });

  it('rolls back only the transaction that failed, to its savepoint', async () => {
    const outcomes = await Promise.allSettled([
      insert('a'),
      db().transaction().execute(async (tx) => {
        await tx.insertInto('things' as never).values({ name: 'doomed' } as never).execute();
        throw new Error('changed my mind');
      }),
      insert('a'), // a duplicate key: fails in SQLite, after the first 'a' joined the same shared transaction
      insert('b'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(committed()).toEqual(['a', 'b']);
  });

  it('rolls back the first transaction of a shared one, which has no savepoint, and the next ones still commit', async () => {
    const outcomes = await Promise.allSettled([
      db().transaction().execute(async (tx) => {
        await tx.insertInto('things' as never).values({ name: 'doomed' } as never).execute();
        throw new Error('changed my mind');
      }),
      insert('a'),
      insert('b'),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(committed()).toEqual(['a', 'b']);
    await insert('alone');
    expect(committed()).toEqual(['a', 'alone', 'b']);
  });

  it('rejects every member when the shared COMMIT fails, and keeps none of their rows', async () => {
    // A deferred foreign key is checked at COMMIT only: one orphan makes the whole shared transaction fail.
    await sql`create table parts (thing text references things (name) deferrable initially deferred)`.execute(db());
    const outcomes = await Promise.allSettled([
      insert('a'),
      db().transaction().execute((tx) => tx.insertInto('parts' as never).values({ thing: 'nothing' } as never).execute()),
      insert('b'),
    ]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' } });
    expect(committed()).toEqual([]);
    await insert('after');
    expect(committed()).toEqual(['after']);
  });

  it('waits for another store’s write lock without blocking the event loop: a second store in this process (the CLI in tests) writes while a batch is open', async () => {
    const second = testStore.reopen();
    try {
      // The first store's batch holds SQLite's write lock until the event loop goes round; the second
      // store's BEGIN IMMEDIATE waits for it. Waiting in SQLite's busy timeout would stop the event loop,
      // so the batch could never commit, and the second write would fail ("database is locked").
      const first = insert('first');
      await second.db.transaction().execute((tx) => tx.insertInto('things' as never).values({ name: 'second' } as never).execute());
      await first;
      expect(committed()).toEqual(['first', 'second']);
    } finally {
      await second.close();
    }
  });

  it('gives a lone write the same promise: resolved once committed', async () => {
    const write = db().insertInto('things' as never).values({ name: 'alone' } as never).execute();
    await Promise.all([write.then(() => expect(committed()).toEqual(['alone', 'tx'])), insert('tx')]);
  });

  it('reads outside a transaction see committed rows only', async () => {
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from things`.execute(db())).rows[0].n);
    await db().transaction().execute(async (tx) => {
      await tx.insertInto('things' as never).values({ name: 'pending' } as never).execute();
      expect(await count()).toBe(0);
    });
    expect(await count()).toBe(1);
  });

  describe('compiled queries run straight on the driver (executeCompiled)', () => {
    const insertDirect = (db: Kysely<any>, name: string) => executeCompiled(db, CompiledQuery.raw('insert into things (name) values (?)', [name]));
    const namesDirect = async (db: Kysely<any>) =>
      (await executeCompiled<{ name: string }>(db, CompiledQuery.raw('select name from things order by name'))).rows.map((row) => row.name);

    it('join their own transaction, which commits or rolls back with them', async () => {
      const outcomes = await Promise.allSettled([
        db().transaction().execute((tx) => insertDirect(tx, 'a')),
        db().transaction().execute(async (tx) => {
          await insertDirect(tx, 'doomed');
          expect(await namesDirect(tx)).toContain('doomed');
          throw new Error('changed my mind');
        }),
        db().transaction().execute(async (tx) => {
          await insertDirect(tx, 'b');
          await insertDirect(tx, 'a'); // a duplicate key: this transaction fails, its 'b' with it
        }),
        db().transaction().execute((tx) => insertDirect(tx, 'c')),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect(committed()).toEqual(['a', 'c']);
    });

    it('outside a transaction: a read sees committed rows only, a write resolves once committed', async () => {
      await db().transaction().execute(async (tx) => {
        await insertDirect(tx, 'pending');
        expect(await namesDirect(db())).toEqual([]);
      });
      expect(await namesDirect(db())).toEqual(['pending']);
      const write = insertDirect(db(), 'alone');
      await Promise.all([write.then(() => expect(committed()).toEqual(['alone', 'pending', 'tx'])), insert('tx')]);
    });

    it('refuse a transaction that is over rather than run outside it', async () => {
      let finished: Kysely<any> | undefined;
      await db().transaction().execute(async (tx) => {
        finished = tx;
      });
      await expect(insertDirect(finished!, 'late')).rejects.toThrow(/no transaction is open/);
      expect(committed()).toEqual([]);
    });
  });
});
