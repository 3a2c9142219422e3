import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { dialects, postgresTestUrl } from './dialects.js';
import { startTestServer, stopTestServer, type TestServer } from './server.js';

/**
 * Two PostgreSQL transactions met at a given point: a session of the test's own holds a row lock that
 * the first one needs next, the second starts while the first waits there, and the lock goes once the
 * second has finished, or waits on the first or on the same lock. A third session watches who waits on whom
 * (`pg_blocking_pids`): a session reads `pg_stat_activity` once per transaction, so the holder cannot.
 */
export interface LockHolder {
  /**
   * Runs `first` until it waits on the lock that `statement` takes, at a statement matching `waitsAt`;
   * then `second`, as above. The holder's transaction then commits, or rolls back (`release`).
   */
  interleave(
    lock: { statement: string; params: unknown[]; waitsAt: RegExp; release?: 'commit' | 'rollback' },
    first: () => Promise<unknown>,
    second: () => Promise<unknown>,
  ): Promise<{ first: unknown; second: unknown }>;
  close(): Promise<void>;
}

/** A lock holder on the store's schema. */
export async function lockHolder(schema: string): Promise<LockHolder> {
  const holder = new pg.Client({ connectionString: postgresTestUrl });
  const watcher = new pg.Client({ connectionString: postgresTestUrl });
  await holder.connect();
  await holder.query(`set search_path to ${schema}`);
  await watcher.connect();
  const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  /** The sessions `pid` holds up, with their statements. */
  const heldUpBy = async (pid: number) =>
    (await watcher.query<{ pid: number; query: string }>('select pid, query from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid])).rows;
  return {
    async interleave(lock, first, second) {
      const settled = new Set<string>();
      const outcome = (name: string, running: () => Promise<unknown>) =>
        running()
          .then(
            () => 'done',
            (error: unknown) => error,
          )
          .finally(() => settled.add(name));
      await holder.query('begin');
      let firstDone: Promise<unknown> = Promise.resolve();
      let secondDone: Promise<unknown> = Promise.resolve();
      try {
        await holder.query(lock.statement, lock.params);
        firstDone = outcome('first', first);
        await expect.poll(async () => (await heldUpBy(holderPid)).map((held) => held.query)).toEqual([expect.stringMatching(lock.waitsAt)]);
        const [waiting] = await heldUpBy(holderPid);
        secondDone = outcome('second', second);
        // Finished, waiting on the first, or waiting on the holder's lock beside it.
        await expect.poll(async () => settled.has('second') || (await heldUpBy(waiting!.pid)).length > 0 || (await heldUpBy(holderPid)).length > 1).toBe(true);
      } finally {
        await holder.query(lock.release ?? 'commit');
      }
      return { first: await firstDone, second: await secondDone };
    },
    async close() {
      await holder.end();
      await watcher.end();
    },
  };
}

/**
 * A suite run on PostgreSQL alone (SQLite's one writer never interleaves changes), against a test server
 * with a lock holder on its schema: `onPostgres('…', (suite) => …)`, where `suite()` gives both inside tests.
 */
export function onPostgres(name: string, body: (suite: () => { t: TestServer; holder: LockHolder }) => void): void {
  describe.runIf(dialects.includes('postgres'))(`[postgres] ${name}`, () => {
    let t: TestServer | undefined;
    let holder: LockHolder | undefined;
    beforeAll(async () => {
      t = await startTestServer('postgres');
      holder = await lockHolder(t.testStore.pgSchema!);
    });
    afterAll(async () => {
      await holder?.close();
      if (t) await stopTestServer(t);
    });
    body(() => {
      if (!t || !holder) throw new Error('the PostgreSQL test server did not start');
      return { t, holder };
    });
  });
}
