// npm run bench:threads — a thread of REPLIES replies read by chat.fetchMessages over real HTTP, one reader
// at a time, on SQLite and on PostgreSQL (a database of its own, dropped afterwards): (t1) the newest page,
// what the web client's thread panel opens with, and (t2) pages back from random points of the thread, its
// "Load older replies"; against (t0), pages back through the same channel's history of as many messages,
// measured in the same run. Pages of 100, the client's size. Writes its section of BENCHMARKS.md. With
// BENCH_CPU_PROF_DIR, the server process writes a `node --cpu-prof` profile there (a folder per dialect);
// BENCH_THREADS_STORES=sqlite (or postgres) measures one store only.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { insertMessages, messageRow } from '../packages/server/src/store/rows/messages.js';
import { openStore } from '../packages/server/src/store/store.js';
import { startChild } from './child.js';
import { formatLoad, runLoad, type LoadResult } from './load.js';
import { writeSection } from './report.js';
import { seed, withBenchStore } from './sends.js';

const REPLIES = Number(process.env.BENCH_THREAD_REPLIES ?? 10_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const PAGE = 100;
const TARGET_P99_MS = 5;

interface SeededThread {
  token: string;
  chat: string;
  root: string;
  /** Every 97th reply: where the older pages start. */
  starts: string[];
  /** Every 97th message of the channel's own history. */
  historyStarts: string[];
}

interface ThreadFigures {
  dialect: 'sqlite' | 'postgres';
  history: LoadResult;
  newest: LoadResult;
  older: LoadResult;
}

/**
 * The bench team's channel with as many messages of its own, then a parent and REPLIES replies to it, a
 * second apart, and the thread's summary, written straight into the store in batches (through HTTP this
 * would measure the seeding).
 */
async function seedThread(dataDir: string, databaseUrl: string | undefined): Promise<SeededThread> {
  const { tokens, channelId, teamId, peopleIds } = await seed(dataDir, databaseUrl);
  const store = openStore({ dataDir, databaseUrl });
  const start = Date.now() - (2 * REPLIES + 1) * 1000;
  const row = (index: number, fields: { text: string; thread_parent?: string }) => {
    const at = start + index * 1000;
    const from = peopleIds[index % peopleIds.length];
    return messageRow({ uid: newMessageUid(at), chat_key: channelId, team_id: teamId, from_user_id: from, to_id: channelId, timestamp: at, ...fields });
  };
  const history = Array.from({ length: REPLIES }, (_, index) => row(index, { text: `Message ${index + 1} of the channel` }));
  const root = row(REPLIES, { text: 'The release checklist, one reply per step' });
  const replies = Array.from({ length: REPLIES }, (_, index) => row(REPLIES + index + 1, { text: `Step ${index + 1} done`, thread_parent: root.uid }));
  await insertMessages(store.db, [...history, root, ...replies]);
  const last = replies.at(-1)!;
  await store.db
    .insertInto('threads')
    .values({ parent_uid: root.uid, chat_key: channelId, team_id: teamId, reply_count: REPLIES, last_reply_uid: last.uid, last_reply_at: last.timestamp, participants: JSON.stringify(peopleIds.slice(0, 5)) })
    .execute();
  await store.close();
  const every97th = (rows: Array<{ uid: string }>) => rows.filter((_, index) => index % 97 === 0).map((message) => message.uid);
  return { token: tokens[0], chat: channelId, root: root.uid, starts: every97th(replies), historyStarts: every97th(history) };
}

function measureThread(dialect: 'sqlite' | 'postgres'): Promise<ThreadFigures> {
  return withBenchStore(dialect, 'threads', async ({ dir, databaseUrl }) => {
    const thread = await seedThread(dir, databaseUrl);
    if (databaseUrl) {
      // As a database that has lived with autovacuum would be.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query('analyze');
      await client.end();
    }
    const profileDir = process.env.BENCH_CPU_PROF_DIR;
    const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, dialect)}`] : [];
    const aviary = await startChild('./servers/aviary.ts', [dir], { DATABASE_URL: databaseUrl ?? '' }, profiling);
    try {
      const page = (paging: { thread?: string; before?: string }) => ({
        path: `/v1/chat.fetchMessages?${new URLSearchParams({ token: thread.token, chat: thread.chat, limit: String(PAGE), ...paging })}`,
      });
      const older = (i: number) => page({ thread: thread.root, before: thread.starts[(i * 7919) % thread.starts.length] });
      const historyPage = (i: number) => page({ before: thread.historyStarts[(i * 7919) % thread.historyStarts.length] });
      // Warm-up; on SQLite it also lets the server index the seeded messages for search (its queue, drained after start).
      await runLoad({ url: aviary.url, concurrency: 1, durationMs: 2000, request: (i) => (i % 2 ? older(i) : historyPage(i)) });
      const history = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: historyPage });
      const newest = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: () => page({ thread: thread.root }) });
      const olderPages = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: older });
      return { dialect, history, newest, older: olderPages };
    } finally {
      await aviary.stop();
    }
  });
}

function report(figures: ThreadFigures[], loadAtStart: number): string[] {
  const replies = REPLIES.toLocaleString('en');
  const threadRows = figures.flatMap((f) => [
    [`(t1) ${f.dialect}: the thread's newest page of ${PAGE}`, f.newest],
    [`(t2) ${f.dialect}: a page of ${PAGE} of the thread before a random reply`, f.older],
  ] as const);
  const row = (name: string, x: LoadResult) => `| ${name} | ${x.perSecond.toFixed(0)} | ${x.p50Ms.toFixed(2)} | ${x.p99Ms.toFixed(2)} | ${x.requests} | ${x.failures} |`;
  return [
    `## Threads: a thread of ${replies} replies, paged (issue 23)`,
    '',
    `Measured by \`npm run bench:threads\` (\`bench/threads.ts\`, part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}, PostgreSQL on the same machine; ` +
      `**load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end**: the machine is shared with other engineers' builds and test runs, which move these figures (the tail most). ` +
      `A channel of 10 with ${replies} messages, then one parent and ${replies} replies to it (written straight into the store, then the thread's summary); \`chat.fetchMessages\` over HTTP, one request at a time, ${DURATION_MS / 1000} s each after a 2 s warm-up: ` +
      `(t1) the thread's newest page, as the web client's thread panel opens; (t2) pages back from random points of the thread, its "Load older replies"; (t0) the same pages back through the channel's own history, in the same run, ` +
      `so that (t2)/(t0) tells what reading a thread costs beyond reading a chat whatever the load. Each answer carries the messages' reactions, pins and summaries, as the client gets them.`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | requests | failed |',
    '|---|---|---|---|---|---|',
    ...figures.flatMap((f) => [row(`(t0) ${f.dialect}: a page of ${PAGE} of the channel's history before a random message`, f.history), ...threadRows.filter(([name]) => name.includes(f.dialect)).map(([name, x]) => row(name, x))]),
    '',
    '| target | figure | met |',
    '|---|---|---|',
    ...threadRows.map(([name, x]) => `| ${name.replace(/:.*/, '')} p99 < ${TARGET_P99_MS} ms | ${x.p99Ms.toFixed(2)} ms | ${x.p99Ms < TARGET_P99_MS ? 'yes' : 'no'} |`),
    ...figures.map((f) => `| (t2)/(t0) ${f.dialect}, p50 and p99: a thread's page against a chat's | ${(f.older.p50Ms / f.history.p50Ms).toFixed(2)} and ${(f.older.p99Ms / f.history.p99Ms).toFixed(2)} | – |`),
    '',
  ];
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0];
  const figures: ThreadFigures[] = [];
  const stores = (process.env.BENCH_THREADS_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  for (const dialect of stores) {
    console.log(`seeding a thread of ${REPLIES.toLocaleString('en')} replies on ${dialect}…`);
    const f = await measureThread(dialect);
    console.log(`(t0) ${dialect} history pages: ${formatLoad(f.history)}\n(t1) ${dialect} newest page: ${formatLoad(f.newest)}\n(t2) ${dialect} older pages: ${formatLoad(f.older)}`);
    figures.push(f);
  }
  const lines = report(figures, loadAtStart);
  writeSection(lines);
  console.log(lines.join('\n'));
}

await main();
