// npm run bench:postgres — the send path and history on PostgreSQL, each against a baseline in the same run:
// (p1) chat.sendMessage 16 in flight against a bare Fastify route doing one PostgreSQL insert with the same
// pool size, taking turns for ROUNDS rounds; (p2) 16 in flight against one at a time; (p3) a history page
// of 50 on a direct chat of HISTORY messages, one reader paging back from random points. A database of its
// own, dropped afterwards. Writes its section of BENCHMARKS.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { startChild } from './child.js';
import { formatLoad, mergeLoads, runLoad, type LoadResult } from './load.js';
import { writeSection } from './report.js';
import { seed } from './sends.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HISTORY = Number(process.env.BENCH_PG_HISTORY ?? 1_000_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const ROUNDS = 3;
const BATCH = 10_000;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

interface Seeded {
  tokens: string[];
  channelId: string;
  history: { token: string; chat: string; uids: string[] };
}

async function seedWithHistory(databaseUrl: string, dataDir: string): Promise<Seeded> {
  const { tokens, channelId, teamId, peopleIds } = await seed(dataDir, databaseUrl);
  const uids = await fillDirectChat(databaseUrl, teamId, peopleIds[0], peopleIds[1], Date.now());
  return { tokens, channelId, history: { token: tokens[0], chat: peopleIds[1], uids } };
}

/**
 * HISTORY messages between two people, inserted in batches straight into the table (through HTTP this
 * would measure the seeding), with the search triggers off for the load (session_replication_role), then
 * ANALYZE, as a database that has lived with autovacuum would be.
 */
async function fillDirectChat(databaseUrl: string, teamId: string, a: string, b: string, now: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const chatKey = [a, b].sort().join('|');
  const sample: string[] = [];
  const start = now - HISTORY * 10;
  await client.query('set session_replication_role = replica');
  for (let first = 0; first < HISTORY; first += BATCH) {
    const uids: string[] = [];
    const times: number[] = [];
    const from: string[] = [];
    const to: string[] = [];
    const texts: string[] = [];
    for (let i = first; i < Math.min(HISTORY, first + BATCH); i++) {
      const at = start + i * 10;
      uids.push(newMessageUid(at));
      times.push(at);
      from.push(i % 2 ? a : b);
      to.push(i % 2 ? b : a);
      texts.push(`message ${i} of the long history`);
      if (i % 997 === 0) sample.push(uids.at(-1)!);
    }
    await client.query(
      'insert into messages (uid, chat_key, team_id, from_user_id, to_id, timestamp, text) ' +
        'select u, $1, $2, f, t, ts, x from unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[]) as m(u, f, t, ts, x)',
      [chatKey, teamId, uids, from, to, times, texts],
    );
  }
  await client.query('set session_replication_role = origin');
  await client.query('analyze');
  await client.end();
  return sample;
}

interface PostgresFigures {
  baselineRounds: LoadResult[];
  sendRounds: LoadResult[];
  one: LoadResult;
  history: LoadResult;
}

async function measure(databaseUrl: string, data: Seeded, dataDir: string): Promise<PostgresFigures> {
  const baseline = await startChild('./servers/baselinePostgres.ts', [], { DATABASE_URL: databaseUrl });
  const aviary = await startChild('./servers/aviary.ts', [dataDir], { DATABASE_URL: databaseUrl });
  try {
    const insert = (i: number) => ({ path: '/insert', method: 'POST' as const, headers: form, body: `text=${encodeURIComponent(`baseline message ${i}`)}` });
    const send = (i: number) => ({
      path: '/v1/chat.sendMessage', method: 'POST' as const, headers: form,
      body: new URLSearchParams({ token: data.tokens[i % data.tokens.length], to: data.channelId, text: `bench message ${i}` }).toString(),
    });
    await runLoad({ url: baseline.url, concurrency: 4, durationMs: 1000, request: insert });
    await runLoad({ url: aviary.url, concurrency: 4, durationMs: 1000, request: send });
    const baselineRounds: LoadResult[] = [];
    const sendRounds: LoadResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      baselineRounds.push(await runLoad({ url: baseline.url, concurrency: 16, durationMs: DURATION_MS, request: insert }));
      sendRounds.push(await runLoad({ url: aviary.url, concurrency: 16, durationMs: DURATION_MS, request: send }));
      console.log(`round ${round}: (p0) ${baselineRounds.at(-1)!.perSecond.toFixed(0)} req/s, (p1) ${sendRounds.at(-1)!.perSecond.toFixed(0)} req/s`);
    }
    const one = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: send });
    const page = (i: number) => ({
      path: `/v1/chat.fetchMessages?${new URLSearchParams({ token: data.history.token, chat: data.history.chat, limit: '50', before: data.history.uids[(i * 7919) % data.history.uids.length] })}`,
    });
    await runLoad({ url: aviary.url, concurrency: 1, durationMs: 1000, request: page });
    const history = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: page });
    return { baselineRounds, sendRounds, one, history };
  } finally {
    await aviary.stop();
    await baseline.stop();
  }
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

function report(f: PostgresFigures, loadAtStart: number): string[] {
  const ratios = f.sendRounds.map((send, i) => send.perSecond / f.baselineRounds[i].perSecond);
  const sixteen = mergeLoads(f.sendRounds);
  const growth = sixteen.perSecond / f.one.perSecond;
  return [
    '## PostgreSQL: the send path and history (issue 22)',
    '',
    `Measured by \`npm run bench:postgres\` (\`bench/postgres.ts\`, part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, PostgreSQL on the same machine; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end. ` +
      `(p0) and (p1) take turns for ${ROUNDS} rounds of ${DURATION_MS / 1000} s, 16 requests in flight, the same pool size (10); the ratio is the median of the rounds' ratios.`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | requests | failed |',
    '|---|---|---|---|---|---|',
    ...[
      ['(p0) baseline: Fastify route doing one PostgreSQL insert, 16 in flight', mergeLoads(f.baselineRounds)],
      ['(p1) chat.sendMessage to a channel of 10, 16 in flight', sixteen],
      ['(p2) the same, one at a time', f.one],
      [`(p3) chat.fetchMessages history page of 50, direct chat of ${HISTORY.toLocaleString('en')}, one at a time`, f.history],
    ].map(([name, x]) => `| ${name as string} | ${(x as LoadResult).perSecond.toFixed(0)} | ${(x as LoadResult).p50Ms.toFixed(2)} | ${(x as LoadResult).p99Ms.toFixed(2)} | ${(x as LoadResult).requests} | ${(x as LoadResult).failures} |`),
    '',
    '| target | figure | met |',
    '|---|---|---|',
    `| (p1)/(p0) ≥ 0.5, median of ${ROUNDS} rounds (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${median(ratios).toFixed(2)} | ${median(ratios) >= 0.5 ? 'yes' : 'no'} |`,
    `| (p1)/(p2): throughput grows with concurrency, ≥ 4× | ${growth.toFixed(1)}× | ${growth >= 4 ? 'yes' : 'no'} |`,
    `| (p3) p99 < 5 ms | ${f.history.p99Ms.toFixed(2)} ms | ${f.history.p99Ms < 5 ? 'yes' : 'no'} |`,
    '',
  ];
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0];
  const database = `aviary_bench_pg_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
  const dir = mkdtempSync(join(tmpdir(), 'aviary-bench-pg-'));
  try {
    console.log(`seeding a direct chat of ${HISTORY.toLocaleString('en')} messages on PostgreSQL…`);
    const data = await seedWithHistory(databaseUrl, dir);
    const figures = await measure(databaseUrl, data, dir);
    console.log(`(p0) ${formatLoad(mergeLoads(figures.baselineRounds))}\n(p1) ${formatLoad(mergeLoads(figures.sendRounds))}\n(p2) ${formatLoad(figures.one)}\n(p3) ${formatLoad(figures.history)}`);
    const lines = report(figures, loadAtStart);
    writeSection(lines);
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await main();
