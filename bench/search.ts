// npm run bench (search part): search.messages' query on a generated corpus, on SQLite and on PostgreSQL,
// side by side with a plain LIKE scan of the same messages; and what the index costs a message written.
// BENCH_SEARCH_SIZE messages (default 100,000); PostgreSQL in a database of its own on BENCH_DATABASE_URL's
// server (default the test server), dropped afterwards.
// BENCH_SEARCH_KEEP=1 keeps each store's corpus for the next run (a SQLite data directory under the system's
// temporary directory and a PostgreSQL database, both named for the corpus recipe and size) and reuses it
// when present: seeding 1,000,000 messages takes minutes. BENCH_SEARCH_STORES (default "sqlite,postgres")
// picks the stores; BENCH_SEARCH_COST=0 leaves out what the index costs a message written and a send.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { parseSearchQuery } from '../packages/protocol/src/index.js';
import { resolveFilters } from '../packages/server/src/core/search/searchFilters.js';
import { searchMessages } from '../packages/server/src/core/search/searchMessages.js';
import { drainSearchQueue } from '../packages/server/src/core/search/searchQueue.js';
import { newMessageUid } from '../packages/server/src/store/ids.js';
import { insertMessages, messageRow } from '../packages/server/src/store/rows/messages.js';
import { openStore, type Store } from '../packages/server/src/store/store.js';
import { replayCorpus, seedCorpus, seeded, vocabulary, type Corpus } from './searchCorpus.js';
import { measureSendCost, SEND_TEXTS, sendCostRows } from './searchSendCost.js';

const SIZE = Number(process.env.BENCH_SEARCH_SIZE ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);
/** Searches run untimed before the timed ones (BENCH_SEARCH_WARM_UP, at most BENCH_SEARCH_QUERIES). */
const WARM_UP = Number(process.env.BENCH_SEARCH_WARM_UP ?? 50);
const WRITES = 4000;
const IN_FLIGHT = 16;
const WRITE_ROUNDS = 5;
const KEEP = process.env.BENCH_SEARCH_KEEP === '1';
const STORES = (process.env.BENCH_SEARCH_STORES ?? 'sqlite,postgres').split(',');
const COST = process.env.BENCH_SEARCH_COST !== '0';
/** Names a kept corpus: change the version when searchCorpus.ts draws its messages differently. */
const CORPUS_NAME = `aviary_bench_search_r1_${SIZE}`;
const loadAtStart = loadavg()[0];
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Percentiles {
  p50: number;
  p99: number;
}

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

async function timed(runs: number, once: (i: number) => Promise<unknown>): Promise<Percentiles> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await once(i);
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

/** The queries of a kind, drawn from the corpus: words of middling frequency, phrases from real messages. */
function queries(corpus: Corpus, words: string[], random: () => number) {
  const middling = () => words[50 + Math.floor(random() * 2000)];
  const phrase = () => {
    const text = corpus.samples[Math.floor(random() * corpus.samples.length)].split(' ');
    const at = Math.floor(random() * (text.length - 1));
    return [text[at], text[at + 1]];
  };
  const channel = () => corpus.channelNames[Math.floor(random() * corpus.channelNames.length)];
  return {
    twoWords: Array.from({ length: QUERIES }, () => [middling(), middling()]),
    phrases: Array.from({ length: QUERIES }, phrase),
    inChannel: Array.from({ length: QUERIES }, () => ({ word: middling(), channel: channel() })),
  };
}

async function search(store: Store, corpus: Corpus, text: string): Promise<number> {
  const parsed = parseSearchQuery(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  const filters = await resolveFilters(store.db, corpus.reader, parsed.query);
  return (await searchMessages(store, { reader: corpus.reader, query: parsed.query, filters, limit: 21 })).length;
}

/** The plain scan an index replaces: newest first, as many rows as a page, every pattern with LIKE. */
async function likeScan(store: Store, patterns: string[], chatKey?: string): Promise<number> {
  let query = store.db.selectFrom('messages').select('uid');
  for (const pattern of patterns) query = query.where('text', store.dialect === 'postgres' ? 'ilike' : 'like', `%${pattern}%`);
  if (chatKey) query = query.where('chat_key', '=', chatKey);
  return (await query.orderBy('uid', 'desc').limit(21).execute()).length;
}

/**
 * Messages written one a transaction through the one writer, 16 transactions in flight as under
 * (b)'s load (on SQLite they share commits, as sends do), in rounds taking turns with the index's insert
 * trigger in place and dropped (with, without; without, with; …, so that a drifting machine load favours
 * neither). The time to drain the index's queue after a round is included. On SQLite the figure is
 * this process's CPU time (the store runs in it), which other processes on the machine barely move; on
 * PostgreSQL, whose work is in the server's processes, it is the wall-clock time. µs a message, the
 * median of the rounds.
 */
async function writeCost(store: Store, teamId: string): Promise<{ withIndex: number; without: number; ratios: number[] }> {
  const text = 'deploy the release notes to staging after lunch on friday';
  const writeOne = (at: number) =>
    store.db.transaction().execute((tx) =>
      insertMessages(tx, [messageRow({ uid: newMessageUid(at), chat_key: 'g:writecost', team_id: teamId, from_user_id: 'u:writecost', to_id: 'g:writecost', timestamp: at, text })]),
    );
  const clock = () => {
    if (store.dialect === 'postgres') return performance.now() * 1000;
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const write = async () => {
    const start = clock();
    for (let i = 0; i < WRITES; i += IN_FLIGHT) {
      await Promise.all(Array.from({ length: IN_FLIGHT }, () => writeOne(Date.now())));
    }
    // The messages were only queued: the time to index them counts too.
    await drainSearchQueue(store.db);
    return (clock() - start) / WRITES;
  };
  // The trigger that queues a new message for the index (migrations 0029 and 0040), put back as it was.
  const [drop, create] =
    store.dialect === 'sqlite'
      ? [sql`drop trigger message_search_insert`, sql.raw((await sql<{ sql: string }>`select sql from sqlite_master where type = 'trigger' and name = 'message_search_insert'`.execute(store.db)).rows[0].sql)]
      : [
          sql`drop trigger message_search_insert on messages`,
          sql.raw((await sql<{ definition: string }>`select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'message_search_insert' and tgrelid = 'messages'::regclass`.execute(store.db)).rows[0].definition),
        ];
  await write(); // warm-up: the path compiled and the caches filled before either is measured
  const withIndex: number[] = [];
  const without: number[] = [];
  const measureWith = async () => withIndex.push(await write());
  const measureWithout = async () => {
    await drop.execute(store.db);
    without.push(await write());
    await create.execute(store.db);
  };
  for (let round = 1; round <= WRITE_ROUNDS; round++) {
    for (const measureOne of round % 2 === 1 ? [measureWith, measureWithout] : [measureWithout, measureWith]) await measureOne();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { withIndex: median(withIndex), without: median(without), ratios: withIndex.map((value, i) => value / without[i]) };
}

/** Seeds the corpus into a store just migrated. */
async function seed(store: Store): Promise<void> {
  const random = seeded(24);
  const started = performance.now();
  await seedCorpus(store, SIZE, random, vocabulary(random));
  // What a running PostgreSQL's autovacuum would have done after so many inserts (the test server runs
  // without it): the statistics, and the visibility map that lets an index-only scan skip the table.
  if (store.dialect === 'postgres') await sql`vacuum analyze`.execute(store.db);
  console.log(`${store.dialect}: seeded ${SIZE.toLocaleString('en')} messages in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function measure(store: Store): Promise<string[]> {
  const random = seeded(24);
  const words = vocabulary(random);
  const corpus = await replayCorpus(store, SIZE, random, words);
  const q = queries(corpus, words.words, random);
  // Warm-up, untimed, with other queries than the timed ones (drawn from another seed): the store's
  // connections and the pages every search reads used once, as in a server searched before.
  const warm = queries(corpus, words.words, seeded(99));
  for (let i = 0; i < WARM_UP; i++) await search(store, corpus, i % 2 === 0 ? warm.twoWords[i].join(' ') : `"${warm.phrases[i].join(' ')}"`);
  const channelId = async (name: string) => (await store.db.selectFrom('channels').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const rows: string[] = [];
  const row = (what: string, index: Percentiles, like: Percentiles) =>
    rows.push(`| ${store.dialect} | ${what} | ${index.p50.toFixed(2)} / ${index.p99.toFixed(2)} | ${like.p50.toFixed(2)} / ${like.p99.toFixed(2)} |`);
  row('two words', await timed(QUERIES, (i) => search(store, corpus, q.twoWords[i].join(' '))), await timed(QUERIES, (i) => likeScan(store, q.twoWords[i])));
  row('a phrase', await timed(QUERIES, (i) => search(store, corpus, `"${q.phrases[i].join(' ')}"`)), await timed(QUERIES, (i) => likeScan(store, [q.phrases[i].join(' ')])));
  const keys = await Promise.all(q.inChannel.map((c) => channelId(c.channel)));
  row(
    'a word in:#channel',
    await timed(QUERIES, (i) => search(store, corpus, `${q.inChannel[i].word} in:#${q.inChannel[i].channel}`)),
    await timed(QUERIES, (i) => likeScan(store, [q.inChannel[i].word], keys[i])),
  );
  if (!COST) return rows;
  // The messages written are deleted afterwards (their index entries with them): a kept corpus stays as seeded.
  const cost = await writeCost(store, corpus.reader.team_id).finally(() => store.db.deleteFrom('messages').where('chat_key', '=', 'g:writecost').execute());
  const what = store.dialect === 'sqlite' ? 'CPU µs' : 'µs';
  rows.push(
    `| ${store.dialect} | one message written in its own transaction, 16 in flight: ${what} a message with the index / without (median of ${WRITE_ROUNDS} rounds; each round's ratio) | ` +
      `${cost.withIndex.toFixed(0)} / ${cost.without.toFixed(0)} (${cost.ratios.map((ratio) => ratio.toFixed(2)).join(', ')}) | – |`,
  );
  return rows;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The SQLite corpus: in a directory of its own, kept under its name when BENCH_SEARCH_KEEP=1 (seeded aside, then renamed, so a kept one is whole). */
async function measureSqlite(): Promise<string[]> {
  const kept = join(tmpdir(), CORPUS_NAME);
  const reuse = KEEP && existsSync(kept);
  const dir = reuse ? kept : mkdtempSync(join(tmpdir(), 'aviary-bench-search-'));
  let store = openStore({ dataDir: dir });
  try {
    await store.migrate();
    if (!reuse) await seed(store);
    if (KEEP && !reuse) {
      await store.close();
      renameSync(dir, kept);
      store = openStore({ dataDir: kept });
    }
    return await measure(store);
  } finally {
    await store.close();
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

const databaseUrl = (database: string) => Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();

/** The PostgreSQL corpus: a database of its own, kept under its name when BENCH_SEARCH_KEEP=1 (seeded under another, then renamed). */
async function measurePostgres(): Promise<string[]> {
  const exists = async (name: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query('select 1 from pg_database where datname = $1', [name])).rows.length > 0;
    } finally {
      await client.end();
    }
  };
  const reuse = KEEP && (await exists(CORPUS_NAME).catch(() => false));
  let database = reuse ? CORPUS_NAME : `aviary_bench_search_${randomBytes(4).toString('hex')}`;
  if (!reuse && !(await admin(`create database ${database}`).then(() => true, () => false))) {
    console.log(`PostgreSQL not reachable at ${adminUrl}: SQLite only.`);
    return [];
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'aviary-bench-search-'));
  let store = openStore({ databaseUrl: databaseUrl(database), dataDir });
  try {
    await store.migrate();
    if (!reuse) await seed(store);
    if (KEEP && !reuse) {
      await store.close();
      await admin(`alter database ${database} rename to ${CORPUS_NAME}`);
      database = CORPUS_NAME;
      store = openStore({ databaseUrl: databaseUrl(database), dataDir });
    }
    return await measure(store);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!KEEP) await admin(`drop database if exists ${database} with (force)`);
  }
}

async function main(): Promise<void> {
  const rows: string[] = [];
  if (STORES.includes('sqlite')) rows.push(...(await measureSqlite()));
  if (STORES.includes('postgres')) rows.push(...(await measurePostgres()));
  if (COST) await sendCost(rows);
  console.log(`load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, ${cpus().length} cores`);
  console.log(`\nsearch.messages' query on ${SIZE.toLocaleString('en')} messages, ${QUERIES} queries of each kind, p50 / p99 ms (a page of 20)`);
  console.log('| store | query | index | LIKE scan |\n|---|---|---|---|');
  for (const line of rows) console.log(line);
}

/** What the index costs a send end to end (searchSendCost.ts), on each store measured. */
async function sendCost(rows: string[]): Promise<void> {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (STORES.includes(dialect)) for (const text of SEND_TEXTS) rows.push(...sendCostRows(await measureSendCost(dialect, text)));
  }
}

await main();
