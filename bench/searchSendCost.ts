// The index's cost to chat.sendMessage end to end (SQLite): (b)'s load of run.ts against one server,
// in rounds that take turns with the index's insert trigger in place and dropped (from another
// connection; the server's statements see the change), so that the machine's load weighs on both alike.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sqliteFile } from '../packages/server/src/store/store.js';
import { startChild } from './child.js';
import { baselineDir, seedBenchData } from './fixtures.js';
import { runLoad } from './load.js';

const ROUNDS = 3;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

export interface SendCost {
  /** Requests a second in each round, with the index and without. */
  withIndex: number[];
  without: number[];
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
    const load = async () => (await runLoad({ url: aviary.url, concurrency: 16, durationMs: DURATION_MS, request: send })).perSecond;
    await runLoad({ url: aviary.url, concurrency: 4, durationMs: 1000, request: send });
    const cost: SendCost = { withIndex: [], without: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      cost.withIndex.push(await load());
      db.exec('drop trigger message_search_insert');
      cost.without.push(await load());
      db.exec(trigger);
      console.log(`send cost round ${round}: ${cost.withIndex.at(-1)!.toFixed(0)} req/s with the index, ${cost.without.at(-1)!.toFixed(0)} without`);
    }
    db.close();
    await aviary.stop();
    return cost;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
