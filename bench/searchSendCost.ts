// The index's cost to chat.sendMessage end to end (SQLite): (b)'s load of run.ts against one server,
// in rounds that take turns with the index's insert trigger in place and dropped (from another
// connection; the server's statements see the change), so that the machine's load weighs on both alike.
// The order alternates (with, without; without, with; …): a machine whose load drifts during the run
// (or a process still warming up) would otherwise favour whichever always goes second.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sqliteFile } from '../packages/server/src/store/store.js';
import { startChild } from './child.js';
import { baselineDir, seedBenchData } from './fixtures.js';
import { runLoad } from './load.js';

const ROUNDS = Number(process.env.BENCH_SEND_COST_ROUNDS ?? 4);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

export interface SendCost {
  /** Requests a second in each round, with the index and without. */
  withIndex: number[];
  without: number[];
  /** The server process's CPU time (user + system) per send in each round, µs: what a send costs, whatever else the machine runs. */
  cpuWithIndex: number[];
  cpuWithout: number[];
}

/** CPU time a process has used so far, in µs (Linux: /proc/<pid>/stat's utime and stime, in clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export async function measureSendCost(): Promise<SendCost> {
  const dir = mkdtempSync(join(tmpdir(), 'aviary-bench-send-'));
  try {
    mkdirSync(baselineDir(dir));
    const data = await seedBenchData(dir, 1000);
    const aviary = await startChild('./servers/aviary.ts', [dir]);
    const db = new SQLite(sqliteFile(dir));
    const { sql: trigger } = db.prepare(`select sql from sqlite_master where type = 'trigger' and name = 'message_search_insert'`).get() as { sql: string };
    const send = (i: number) => ({
      path: '/v1/chat.sendMessage', method: 'POST' as const, headers: form,
      body: new URLSearchParams({ token: data.tokens[i % data.tokens.length], to: data.channelId, text: `bench message ${i} about the release notes and friday's deploy` }).toString(),
    });
    const pid = aviary.process.pid!;
    const queued = db.prepare('select count(*) as n from message_search_queue');
    /** A round: req/s, and the server's CPU µs per send, the indexing of what the round queued included. */
    const load = async (): Promise<[number, number]> => {
      const cpu = cpuMicros(pid);
      const result = await runLoad({ url: aviary.url, concurrency: 16, durationMs: DURATION_MS, request: send });
      while ((queued.get() as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      return [result.perSecond, (cpuMicros(pid) - cpu) / result.requests];
    };
    // Warm-up, as long as a round: the server's code compiled and its caches filled before either is measured.
    await load();
    const cost: SendCost = { withIndex: [], without: [], cpuWithIndex: [], cpuWithout: [] };
    const withIndex = async () => {
      const [perSecond, cpu] = await load();
      cost.withIndex.push(perSecond);
      cost.cpuWithIndex.push(cpu);
    };
    const without = async () => {
      db.exec('drop trigger message_search_insert');
      const [perSecond, cpu] = await load();
      cost.without.push(perSecond);
      cost.cpuWithout.push(cpu);
      db.exec(trigger);
    };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const measure of round % 2 === 1 ? [withIndex, without] : [without, withIndex]) await measure();
      console.log(
        `send cost round ${round}: ${cost.withIndex.at(-1)!.toFixed(0)} req/s with the index, ${cost.without.at(-1)!.toFixed(0)} without; ` +
          `server CPU ${cost.cpuWithIndex.at(-1)!.toFixed(0)} µs a send with the index, ${cost.cpuWithout.at(-1)!.toFixed(0)} without`,
      );
    }
    db.close();
    await aviary.stop();
    return cost;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
