// npm run bench:sends — chat.sendMessage one at a time and 16 in flight, on SQLite and on PostgreSQL (a
// database of its own, dropped afterwards), with PostgreSQL's wait events sampled while 16 are in flight.
// Short and bounded: BENCH_DURATION_MS (default 4 s) per figure. With BENCH_CPU_PROF_DIR, the server
// process writes a `node --cpu-prof` profile there (a folder per dialect).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createApp, recordInstall } from '../packages/server/src/core/commands/apps.js';
import { createChannel } from '../packages/server/src/core/commands/channels.js';
import { createPerson, createTeam } from '../packages/server/src/core/commands/people.js';
import { openStore } from '../packages/server/src/store/store.js';
import { startChild } from './child.js';
import { formatLoad, runLoad, type LoadResult } from './load.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

export interface SendFigures {
  dialect: 'sqlite' | 'postgres';
  one: LoadResult;
  sixteen: LoadResult;
  /** PostgreSQL: the wait events of the database's sessions, sampled every 100 ms while 16 were in flight. */
  waits?: Map<string, number>;
}

/** A team of ten who installed one app, and a channel of all ten; also its id and the people's, oldest first. */
export async function seed(dataDir: string, databaseUrl: string | undefined): Promise<{ tokens: string[]; channelId: string; teamId: string; peopleIds: string[] }> {
  const store = openStore({ dataDir, databaseUrl });
  await store.migrate();
  const now = Date.now();
  const team = await createTeam(storeContext(store.db, () => now), cliActor, { name: 'Bench' });
  const people = [];
  for (let i = 0; i < 10; i++) people.push(await createPerson(storeContext(store.db, () => now), cliActor, { teamId: team.id, email: `bench${i}@example.test`, firstName: 'Bench', lastName: `${i}` }));
  const app = await createApp(storeContext(store.db, () => now), cliActor, { developer: { id: people[0].id, team_id: team.id }, name: 'Bench' });
  const tokens = [];
  for (const person of people) tokens.push((await recordInstall(storeContext(store.db, () => now), { id: person.id }, { appId: app.id })).token);
  const { channel } = await createChannel(storeContext(store.db, () => now), { user: people[0], appId: null }, { name: 'bench', type: 'public', members: people.slice(1).map((p) => p.id) });
  await store.close();
  return { tokens, channelId: channel.id, teamId: team.id, peopleIds: people.map((person) => person.id) };
}

async function sampleWaits(database: string, until: Promise<unknown>): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  const waits = new Map<string, number>();
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    const { rows } = await client.query<{ wait: string }>(
      `select coalesce(wait_event_type || ':' || wait_event, 'on CPU') as wait from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
      [database],
    );
    for (const { wait } of rows) waits.set(wait, (waits.get(wait) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await client.end();
  return waits;
}

/** Where a bench's server keeps its store: a data directory of its own and, for PostgreSQL, a database of its own; both gone afterwards. */
export interface BenchStore {
  dir: string;
  /** The database's name and URL, for PostgreSQL; undefined on SQLite. */
  database: string | undefined;
  databaseUrl: string | undefined;
}

export async function withBenchStore<T>(dialect: 'sqlite' | 'postgres', name: string, use: (store: BenchStore) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `aviary-bench-${name}-`));
  const database = dialect === 'postgres' ? `aviary_bench_${name}_${randomBytes(4).toString('hex')}` : undefined;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  const databaseUrl = database ? Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString() : undefined;
  if (database) {
    await admin.connect();
    await admin.query(`create database ${database}`);
  }
  try {
    return await use({ dir, database, databaseUrl });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (database) {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }
}

export function measureSends(dialect: 'sqlite' | 'postgres'): Promise<SendFigures> {
  return withBenchStore(dialect, 'sends', async ({ dir, database, databaseUrl }) => {
    const data = await seed(dir, databaseUrl);
    const profileDir = process.env.BENCH_CPU_PROF_DIR;
    const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, dialect)}`] : [];
    const aviary = await startChild('./servers/aviary.ts', [dir], { DATABASE_URL: databaseUrl ?? '' }, profiling);
    const send = (i: number) => ({
      path: '/v1/chat.sendMessage', method: 'POST' as const, headers: form,
      body: new URLSearchParams({ token: data.tokens[i % data.tokens.length], to: data.channelId, text: `bench message ${i}` }).toString(),
    });
    await runLoad({ url: aviary.url, concurrency: 4, durationMs: 1000, request: send });
    const one = await runLoad({ url: aviary.url, concurrency: 1, durationMs: DURATION_MS, request: send });
    const load = runLoad({ url: aviary.url, concurrency: 16, durationMs: DURATION_MS, request: send });
    const waits = database ? await sampleWaits(database, load) : undefined;
    const sixteen = await load;
    await aviary.stop();
    return { dialect, one, sixteen, waits };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const { one, sixteen, waits } = await measureSends(dialect);
    console.log(`[${dialect}] one at a time: ${formatLoad(one)}`);
    console.log(`[${dialect}] 16 in flight: ${formatLoad(sixteen)}; ${(sixteen.perSecond / one.perSecond).toFixed(2)}× one at a time`);
    if (waits) console.log(`[${dialect}] wait events while 16 in flight: ${[...waits].sort((a, b) => b[1] - a[1]).map(([wait, n]) => `${wait} ${n}`).join(', ')}`);
  }
}
