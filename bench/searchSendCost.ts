// The index's cost to chat.sendMessage end to end, on SQLite and on PostgreSQL: (b)'s load of run.ts
// against one server, in rounds that take turns with the index's write trigger in place and dropped
// (from another connection; the server's statements see the change), so that the machine's load weighs
// on both alike. The order alternates (with, without; without, with; …): a machine whose load drifts
// during the run (or a process still warming up) would otherwise favour whichever always goes second.
//
// "Without the index" drops the one trigger that queues a new message for the index,
// `message_search_insert`, in the bench's own store, and nothing else (migrations 0029 and 0040: the
// server indexes what it queued after the commit, a thousand messages a transaction). A round waits for
// the queue to empty, so that the drain's indexing is counted in the round that queued it. Its
// definition is read back from the store and put back as it was.
//
// The messages' texts are of two kinds, each measured in a run of its own: `corpus`, drawn as the search
// bench's corpus is (searchCorpus.ts: 4 to 23 words of a Zipf law over common and generated words, some
// of them rare), as a team writes, a new message each send of the run; and `numbered`, the same ten
// words and the send's number in its round ("bench message 1234 about …"), the bench's text before
// there were two.
//
// What a send costs is CPU time, read from /proc (utime + stime): the server process's, and on
// PostgreSQL also that of the database's backends, which run the send's statements and the trigger
// (the backends of the bench's database, found in pg_stat_activity at the start and end of each round).
// The background processes of PostgreSQL (WAL writer, checkpointer, autovacuum, which also merges a GIN
// index's pending entries) are not counted, for either side. Each round then sends one message at a
// time for a while: the wall-clock time of a send, the figure that does not depend on what /proc counts.
import { mkdirSync, readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sqliteFile } from '../packages/server/src/store/store.js';
import { startChild, type Child } from './child.js';
import { baselineDir, seedBenchData } from './fixtures.js';
import { runLoad } from './load.js';
import { drawText, seeded, vocabulary } from './searchCorpus.js';
import { seed, withBenchStore } from './sends.js';

const ROUNDS = Number(process.env.BENCH_SEND_COST_ROUNDS ?? 5);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
/** How long each round sends one message at a time, after its 16 in flight. */
const ONE_AT_A_TIME_MS = Math.round(DURATION_MS / 2);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** What the messages sent say (above). */
export type SendText = 'corpus' | 'numbered';
/** The kinds measured, each in a run of its own: BENCH_SEND_TEXTS, default both. */
export const SEND_TEXTS = (process.env.BENCH_SEND_TEXTS ?? 'corpus,numbered').split(',') as SendText[];

/** The text of each kind, of the i-th send of a round; the corpus's are drawn once, the same every run, and taken in turn. */
function texts(kind: SendText): (i: number) => string {
  if (kind === 'numbered') return (i) => `bench message ${i} about the release notes and friday's deploy`;
  const random = seeded(31);
  const words = vocabulary(random);
  const drawn = Array.from({ length: 50_000 }, () => drawText(random, words));
  let sent = 0;
  return () => drawn[sent++ % drawn.length];
}

export interface SendCost {
  dialect: 'sqlite' | 'postgres';
  text: SendText;
  /** Requests a second in each round, 16 in flight, with the index and without. */
  withIndex: number[];
  without: number[];
  /** The server process's CPU time (user + system) per send in each round, µs: what a send costs, whatever else the machine runs. */
  cpuWithIndex: number[];
  cpuWithout: number[];
  /** PostgreSQL: its backends' CPU time per send (for the bench's database), µs; empty on SQLite. */
  dbCpuWithIndex: number[];
  dbCpuWithout: number[];
  /** Median wall-clock ms of a send, one at a time, in each round. */
  oneWithIndex: number[];
  oneWithout: number[];
}

/** CPU time a process has used so far, in µs (Linux: /proc/<pid>/stat's utime and stime, in clock ticks of 10 ms); 0 once it is gone. */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
}

/** How the index's trigger is taken out of the store and put back, and what else of the store's CPU a send costs. */
interface IndexSwitch {
  drop(): Promise<void>;
  restore(): Promise<void>;
  /** Waits for indexing a round left behind (SQLite's queue). */
  settle(): Promise<void>;
  /** Starts counting the store's own CPU (PostgreSQL's backends); the answer stops and tells it, µs. */
  storeCpu(): Promise<() => Promise<number>>;
  close(): Promise<void>;
}

function sqliteSwitch(dir: string): IndexSwitch {
  const db = new SQLite(sqliteFile(dir));
  const { sql: trigger } = db.prepare(`select sql from sqlite_master where type = 'trigger' and name = 'message_search_insert'`).get() as { sql: string };
  const queued = db.prepare('select count(*) as n from message_search_queue');
  return {
    drop: async () => void db.exec('drop trigger message_search_insert'),
    restore: async () => void db.exec(trigger),
    settle: async () => {
      while ((queued.get() as { n: number }).n > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    storeCpu: async () => async () => 0,
    close: async () => void db.close(),
  };
}

async function postgresSwitch(databaseUrl: string, database: string): Promise<IndexSwitch> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ definition: string }>(
    `select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'message_search_insert' and tgrelid = 'messages'::regclass`,
  );
  if (rows.length !== 1) throw new Error('no message_search_insert trigger on messages: has the PostgreSQL index changed?');
  const backends = async () =>
    (await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database])).rows.map((row) => row.pid);
  return {
    drop: async () => void (await client.query('drop trigger message_search_insert on messages')),
    restore: async () => void (await client.query(rows[0].definition)),
    settle: async () => {
      while ((await client.query('select 1 from message_search_queue limit 1')).rows.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    storeCpu: async () => {
      const start = new Map((await backends()).map((pid) => [pid, cpuMicros(pid)]));
      return async () => {
        // A backend that started during the round counts from 0; one that ended took its time along (the pool keeps them).
        let total = 0;
        for (const pid of await backends()) total += cpuMicros(pid) - (start.get(pid) ?? 0);
        return total;
      };
    },
    close: () => client.end(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export function measureSendCost(dialect: 'sqlite' | 'postgres', text: SendText): Promise<SendCost> {
  return withBenchStore(dialect, 'sendcost', async ({ dir, database, databaseUrl }) => {
    let data: { tokens: string[]; channelId: string };
    if (dialect === 'sqlite') {
      mkdirSync(baselineDir(dir));
      data = await seedBenchData(dir, 1000);
    } else data = await seed(dir, databaseUrl);
    const aviary: Child = await startChild('./servers/aviary.ts', [dir], { DATABASE_URL: databaseUrl ?? '' });
    const index = dialect === 'sqlite' ? sqliteSwitch(dir) : await postgresSwitch(databaseUrl!, database!);
    const textOf = texts(text);
    try {
      const send = (i: number) => ({
        path: '/v1/chat.sendMessage', method: 'POST' as const, headers: form,
        body: new URLSearchParams({ token: data.tokens[i % data.tokens.length], to: data.channelId, text: textOf(i) }).toString(),
      });
      const pid = aviary.process.pid!;
      /** A round: req/s at 16 in flight, the server's and the store's CPU µs per send (the indexing of what the round queued included), then ms a send one at a time. */
      const load = async (): Promise<[number, number, number, number]> => {
        const cpu = cpuMicros(pid);
        const storeCpu = await index.storeCpu();
        const result = await runLoad({ url: aviary.url, concurrency: 16, durationMs: DURATION_MS, request: send });
        await index.settle();
        const perSend = [(cpuMicros(pid) - cpu) / result.requests, (await storeCpu()) / result.requests];
        const one = await runLoad({ url: aviary.url, concurrency: 1, durationMs: ONE_AT_A_TIME_MS, request: send });
        await index.settle();
        return [result.perSecond, perSend[0], perSend[1], one.p50Ms];
      };
      // Warm-up, as long as a round: the server's code compiled and its caches filled before either is measured.
      await load();
      const cost: SendCost = { dialect, text, withIndex: [], without: [], cpuWithIndex: [], cpuWithout: [], dbCpuWithIndex: [], dbCpuWithout: [], oneWithIndex: [], oneWithout: [] };
      const withIndex = async () => {
        const [perSecond, cpu, dbCpu, one] = await load();
        cost.withIndex.push(perSecond);
        cost.cpuWithIndex.push(cpu);
        if (dialect === 'postgres') cost.dbCpuWithIndex.push(dbCpu);
        cost.oneWithIndex.push(one);
      };
      const without = async () => {
        await index.drop();
        try {
          const [perSecond, cpu, dbCpu, one] = await load();
          cost.without.push(perSecond);
          cost.cpuWithout.push(cpu);
          if (dialect === 'postgres') cost.dbCpuWithout.push(dbCpu);
          cost.oneWithout.push(one);
        } finally {
          await index.restore();
        }
      };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const measure of round % 2 === 1 ? [withIndex, without] : [without, withIndex]) await measure();
        const db = dialect === 'postgres' ? `; PostgreSQL backends ${cost.dbCpuWithIndex.at(-1)!.toFixed(0)} µs with, ${cost.dbCpuWithout.at(-1)!.toFixed(0)} without` : '';
        console.log(
          `[${dialect}, ${text}] send cost round ${round}: ${cost.withIndex.at(-1)!.toFixed(0)} req/s with the index, ${cost.without.at(-1)!.toFixed(0)} without; ` +
            `server CPU ${cost.cpuWithIndex.at(-1)!.toFixed(0)} µs a send with the index, ${cost.cpuWithout.at(-1)!.toFixed(0)} without${db}; ` +
            `one at a time ${cost.oneWithIndex.at(-1)!.toFixed(2)} ms with, ${cost.oneWithout.at(-1)!.toFixed(2)} without`,
        );
      }
      return cost;
    } finally {
      await index.close();
      await aviary.stop();
    }
  });
}

/** The table rows of a dialect's figures (bench/search.ts prints them), the ratios with the index to without, round by round. */
export function sendCostRows(cost: SendCost): string[] {
  const { dialect } = cost;
  const store = `${dialect} (${cost.text} texts)`;
  const list = (values: number[], digits = 0) => values.map((n) => n.toFixed(digits)).join(', ');
  const ratios = (withIndex: number[], without: number[]) => withIndex.map((w, i) => w / without[i]);
  const ratioText = (values: number[]) => `${values.map((r) => r.toFixed(2)).join(', ')}; median ${median(values).toFixed(2)}`;
  const rows = [
    `| ${store} | chat.sendMessage (HTTP, 16 in flight, ${cost.withIndex.length} rounds taking turns): req/s with the index / without, each round's ratio | ${list(cost.withIndex)} / ${list(cost.without)}: ${ratioText(ratios(cost.withIndex, cost.without))} | – |`,
    `| ${store} | the same rounds: the server's CPU µs a send with the index / without, each round's ratio | ${list(cost.cpuWithIndex)} / ${list(cost.cpuWithout)}: ${ratioText(ratios(cost.cpuWithIndex, cost.cpuWithout))} | – |`,
  ];
  if (dialect === 'postgres') {
    const total = (server: number[], db: number[]) => server.map((s, i) => s + db[i]);
    const withIndex = total(cost.cpuWithIndex, cost.dbCpuWithIndex);
    const without = total(cost.cpuWithout, cost.dbCpuWithout);
    rows.push(
      `| ${store} | the same rounds: the PostgreSQL backends' CPU µs a send with the index / without, each round's ratio | ${list(cost.dbCpuWithIndex)} / ${list(cost.dbCpuWithout)}: ${ratioText(ratios(cost.dbCpuWithIndex, cost.dbCpuWithout))} | – |`,
      `| ${store} | **the server's and the backends' CPU µs a send together**, with the index / without, each round's ratio | ${list(withIndex)} / ${list(without)}: ${ratioText(ratios(withIndex, without))} | – |`,
    );
  }
  rows.push(
    `| ${store} | the same rounds, one send at a time: median ms a send with the index / without, each round's ratio | ${list(cost.oneWithIndex, 2)} / ${list(cost.oneWithout, 2)}: ${ratioText(ratios(cost.oneWithIndex, cost.oneWithout))} | – |`,
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dialects = (process.env.BENCH_SEARCH_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  const rows: string[] = [];
  for (const dialect of dialects) for (const text of SEND_TEXTS) rows.push(...sendCostRows(await measureSendCost(dialect, text)));
  for (const row of rows) console.log(row);
}
