// Cross-process: a message sent through one server process reaches a stream held by another, through
// Redis, against the same within one process without Redis, measured in the same run. Both on PostgreSQL,
// which several processes need.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { WebSocket } from 'ws';
import { createTeam } from '../packages/server/src/core/commands/people.js';
import { hashToken, newSecret, newUserId } from '../packages/server/src/store/ids.js';
import { insertUser } from '../packages/server/src/store/rows/users.js';
import { openStore, type Db } from '../packages/server/src/store/store.js';
import { startChild, type Child } from './child.js';
import { percentiles, type Latency } from './stream.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

/** A database on this server is made for the run and dropped after it. */
export const ADMIN_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SAMPLES = Number(process.env.BENCH_CROSS_PROCESS_SAMPLES ?? 500);
/** The two cases take turns, so that a change in the machine's load weighs on both. */
const ROUNDS = 5;
const WARM_UP_SAMPLES = 20;
const FRAME_TIMEOUT_MS = 10_000;

export interface CrossProcessBench {
  /** Sent through process A, heard by a stream on process B (both with Redis). */
  crossProcess: Latency;
  /** Sent through a process without Redis, heard by a stream on that same process. */
  oneProcess: Latency;
  samples: number;
}

/** Someone who sends and someone who listens, in a team of their own. */
interface Pair {
  senderSession: string;
  receiverSession: string;
  receiverId: string;
}

async function seedPair(db: Db, name: string): Promise<Pair> {
  const now = Date.now();
  const team = await createTeam(storeContext(db, () => now), cliActor, { name });
  const person = async (role: string) => {
    const user = await insertUser(db, { id: newUserId(), team_id: team.id, email: `${role}@example.test`, first_name: role, last_name: name, created_at: now });
    const session = newSecret('as_s_');
    await db.insertInto('sessions').values({ token_hash: hashToken(session), user_id: user.id, created_at: now, expires_at: now + 86_400_000 }).execute();
    return { id: user.id, session };
  };
  const [sender, receiver] = [await person('sender'), await person('receiver')];
  return { senderSession: sender.session, receiverSession: receiver.session, receiverId: receiver.id };
}

/** A stream on `serverUrl` whose frames go to `onFrame`; resolves once its hello came. */
function openStream(serverUrl: string, session: string, onFrame: (text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/api/stream`, { headers: { authorization: `Bearer ${session}` }, perMessageDeflate: false });
    socket.once('error', reject);
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('{"type":"hello"')) resolve(socket);
      onFrame(text);
    });
  });
}

/**
 * One route from a send to a stream: `sendUrl` takes the message, the stream on `streamUrl` must show it.
 * `measure(i)` sends sample i and resolves with the milliseconds until its frame came.
 */
async function route(sendUrl: string, streamUrl: string, pair: Pair) {
  let waiting: { text: string; resolve: (at: number) => void } | undefined;
  const socket = await openStream(streamUrl, pair.receiverSession, (frame) => {
    if (waiting && frame.includes(waiting.text)) waiting.resolve(performance.now());
  });
  return {
    socket,
    async measure(i: number): Promise<number> {
      const text = `"text":"sample ${i} "`;
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<number>((resolve, reject) => {
        waiting = { text, resolve };
        timer = setTimeout(() => reject(new Error(`sample ${i} did not reach the stream on ${streamUrl} within ${FRAME_TIMEOUT_MS} ms`)), FRAME_TIMEOUT_MS);
      });
      const sentAt = performance.now();
      const response = await fetch(`${sendUrl}/v1/chat.sendFromComposer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${pair.senderSession}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: pair.receiverId, text: `sample ${i} ` }),
      });
      if (response.status !== 200) throw new Error(`sending failed: ${await response.text()}`);
      await response.arrayBuffer();
      try {
        return (await arrived) - sentAt;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Why the bench cannot run here, if it cannot: it needs PostgreSQL and Redis. */
export async function unreachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: 2_000 });
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  redis.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return `PostgreSQL is unreachable at ${ADMIN_DATABASE_URL} (BENCH_DATABASE_URL): ${String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis is unreachable at ${REDIS_URL} (BENCH_REDIS_URL): ${String(error)}`;
  } finally {
    redis.disconnect();
  }
  return undefined;
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function measureCrossProcess(dataDir: string): Promise<CrossProcessBench | { skipped: string }> {
  const why = await unreachable();
  if (why) return { skipped: why };
  const database = `aviary_bench_${randomBytes(6).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${database}` }).toString();
  await adminQuery(`create database ${database}`);
  const children: Child[] = [];
  const sockets: WebSocket[] = [];
  try {
    const store = openStore({ databaseUrl, dataDir });
    await store.migrate();
    const [acrossPair, withinPair] = [await seedPair(store.db, 'Across'), await seedPair(store.db, 'Within')];
    await store.close();

    const shared = { DATABASE_URL: databaseUrl, REDIS_URL, AVIARY_REDIS_KEY_PREFIX: `aviary-bench:${randomBytes(6).toString('hex')}:` };
    const start = async (env: Record<string, string>) => children[children.push(await startChild('./servers/aviary.ts', [dataDir], env)) - 1];
    const [a, b, alone] = [await start(shared), await start(shared), await start({ DATABASE_URL: databaseUrl, REDIS_URL: '' })];
    const across = await route(a.url, b.url, acrossPair);
    const within = await route(alone.url, alone.url, withinPair);
    sockets.push(across.socket, within.socket);

    for (let i = 0; i < WARM_UP_SAMPLES; i++) {
      await across.measure(i);
      await within.measure(i);
    }
    const samples = { across: [] as number[], within: [] as number[] };
    const perRound = Math.ceil(SAMPLES / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < perRound; k++) samples.across.push(await across.measure(WARM_UP_SAMPLES + round * perRound + k));
      for (let k = 0; k < perRound; k++) samples.within.push(await within.measure(WARM_UP_SAMPLES + round * perRound + k));
    }
    return { crossProcess: percentiles(samples.across), oneProcess: percentiles(samples.within), samples: samples.across.length };
  } finally {
    for (const socket of sockets) socket.terminate();
    for (const child of children) await child.stop();
    await adminQuery(`drop database if exists ${database} with (force)`);
  }
}

/** The rows of BENCHMARKS.md's target table. */
export function crossProcessRows(r: CrossProcessBench | { skipped: string }): string[] {
  if ('skipped' in r) return [`| (i) cross-process send → stream | not measured: ${r.skipped} | – |`];
  const ratio = r.crossProcess.p50Ms / r.oneProcess.p50Ms;
  return [
    `| (i) a direct message sent through process A (client API) → the frame on a stream held by process B, with Redis between them, p50 / p99 (${r.samples} samples) | ${r.crossProcess.p50Ms.toFixed(1)} / ${r.crossProcess.p99Ms.toFixed(1)} ms | ${r.crossProcess.p50Ms < 50 ? 'yes' : 'no'} (target p50 < 50 ms) |`,
    `| (i′) the same within one process without Redis, p50 / p99 | ${r.oneProcess.p50Ms.toFixed(1)} / ${r.oneProcess.p99Ms.toFixed(1)} ms | – |`,
    `| (i)/(i′), p50: the extra cost of crossing processes | ${ratio.toFixed(2)} (+${(r.crossProcess.p50Ms - r.oneProcess.p50Ms).toFixed(1)} ms) | – |`,
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'aviary-cross-process-bench-'));
  try {
    const result = await measureCrossProcess(dir);
    console.log(result);
    console.log(crossProcessRows(result).join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
