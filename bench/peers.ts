// Aviary's fan-out side by side with its peers (issue 22): Socket.IO with its Redis adapter and one SQLite
// insert per message (as durable as Aviary), and a bare `ws` broadcast without persistence (the floor).
// N receivers listen in a process of their own; M messages go to their one channel at 10 a second, then M
// in a burst; one server process, then two (half the receivers on each, every send to the first).
// `npm run bench:peers`; sizes from BENCH_PEERS_RECEIVERS and BENCH_PEERS_MESSAGES, rounds from BENCH_PEERS_ROUNDS.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { writeSection } from './report.js';
import { startChild, type Child } from './child.js';
import { ADMIN_DATABASE_URL, adminQuery, REDIS_URL, unreachable } from './crossProcess.js';
import { seedPeersChannel } from './peersSeed.js';
import { percentiles } from './stream.js';
import type { PeerKind, ReceiversOrder, ReceiversReport } from './peerReceivers.js';

const RECEIVERS = Number(process.env.BENCH_PEERS_RECEIVERS ?? 300);
const MESSAGES = Number(process.env.BENCH_PEERS_MESSAGES ?? 100);
const PACED_INTERVAL_MS = 100;
const BURST_IN_FLIGHT = 16;
/** Longest wait for the receivers (connecting, a phase's deliveries) before the run gives up on them. */
/** The peers take turns, each round in another order, so that a change in the machine's load weighs on all. */
const ROUNDS = Number(process.env.BENCH_PEERS_ROUNDS ?? 3);
const WAIT_MS = Number(process.env.BENCH_PEERS_WAIT_MS ?? 60_000);
const FILLER = 'x'.repeat(200);
/** Sent one at a time before anything is measured, so that every server's code paths and connections are warm. */
const WARM_UP_MESSAGES = 20;

export interface PeerResult {
  name: string;
  processes: 1 | 2;
  store: string;
  p50Ms: number;
  p99Ms: number;
  burstP50Ms: number;
  burstP99Ms: number;
  deliveriesPerSecond: number;
  missing: number;
}

/** How to start a peer's servers and send it a message. */
interface Peer {
  name: string;
  kind: PeerKind;
  store: string;
  start(processes: 1 | 2, dir: string): Promise<{ children: Child[]; receivers: ReceiversOrder['receivers']; send(text: string): Promise<void>; cleanUp(): Promise<void> }>;
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  if (response.status !== 200) throw new Error(`POST ${url} failed (${response.status}): ${await response.text()}`);
  await response.arrayBuffer();
}

/** What the servers left in Redis under the run's prefix (presence, with a TTL of their own). */
async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

const spread = <T>(children: Child[], make: (child: Child, i: number) => T): T[] => Array.from({ length: RECEIVERS }, (_, i) => make(children[i % children.length], i));

/** Aviary on SQLite in one process and on PostgreSQL (with Redis between them) in two, or always on PostgreSQL. */
const aviaryPeer = (alwaysPostgres: boolean): Peer => ({
  name: alwaysPostgres ? 'aviary on PostgreSQL' : 'aviary',
  kind: 'aviary',
  store: alwaysPostgres ? 'PostgreSQL (+ Redis with 2 processes)' : 'SQLite (1 process), PostgreSQL + Redis (2 processes)',
  async start(processes, dir) {
    const database = `aviary_peers_${randomBytes(6).toString('hex')}`;
    const databaseUrl = processes === 2 || alwaysPostgres ? Object.assign(new URL(ADMIN_DATABASE_URL), { pathname: `/${database}` }).toString() : undefined;
    if (databaseUrl) await adminQuery(`create database ${database}`);
    const { senderSession, sessions, channelId } = await seedPeersChannel({ dataDir: dir, databaseUrl }, RECEIVERS);
    const prefix = `aviary-peers-bench:${randomBytes(6).toString('hex')}:`;
    const env: Record<string, string> = { DATABASE_URL: databaseUrl ?? '', ...(processes === 2 ? { REDIS_URL, AVIARY_REDIS_KEY_PREFIX: prefix } : { REDIS_URL: '' }) };
    const children: Child[] = [];
    for (let i = 0; i < processes; i++) children.push(await startChild('./servers/aviary.ts', [dir], env));
    return {
      children,
      receivers: spread(children, (child, i) => ({ url: child.url, session: sessions[i] })),
      send: (text) => post(`${children[0].url}/v1/chat.sendFromComposer`, JSON.stringify({ to: channelId, text }), { authorization: `Bearer ${senderSession}` }),
      cleanUp: async () => {
        if (!databaseUrl) return;
        await adminQuery(`drop database if exists ${database} with (force)`);
        await dropRedisKeys(prefix);
      },
    };
  },
});
const aviary = aviaryPeer(false);
const aviaryOnPostgres = aviaryPeer(true);

const socketIo: Peer = {
  name: 'socket.io',
  kind: 'socket.io',
  store: 'SQLite, WAL (one file shared by both processes); @socket.io/redis-adapter between 2 processes',
  async start(processes, dir) {
    const env: Record<string, string> = processes === 2 ? { REDIS_URL, PEERS_REDIS_PREFIX: `peers-bench:${randomBytes(6).toString('hex')}` } : { REDIS_URL: '' };
    const children: Child[] = [];
    for (let i = 0; i < processes; i++) children.push(await startChild('./servers/socketIo.ts', [join(dir, 'socket.io.db')], env));
    return {
      children,
      receivers: spread(children, (child) => ({ url: child.url, room: 'all-hands' })),
      send: (text) => post(`${children[0].url}/messages`, JSON.stringify({ room: 'all-hands', from: 'sender', text })),
      cleanUp: async () => undefined,
    };
  },
};

const bareWs: Peer = {
  name: 'ws',
  kind: 'ws',
  store: 'none (memory only), 1 process',
  async start(_processes, _dir) {
    const child = await startChild('./servers/bareWs.ts', []);
    return {
      children: [child],
      receivers: spread([child], (c) => ({ url: c.url })),
      send: (text) => post(child.url, JSON.stringify({ type: 'message', room: 'all-hands', from: 'sender', text })),
      cleanUp: async () => undefined,
    };
  },
};

/** Forks the receivers' process and resolves with its next message of `type` (rejects on its error or exit). */
function receiversProcess(): { child: ChildProcess; next(type: string): Promise<{ report?: ReceiversReport }> } {
  const child = fork(fileURLToPath(new URL('./peerReceivers.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (type: string) =>
    new Promise<{ report?: ReceiversReport }>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`the receivers sent no "${type}" within ${WAIT_MS} ms`)), WAIT_MS);
      const onMessage = (message: { type: string; message?: string; report?: ReceiversReport }) => {
        if (message.type === type) done(undefined, message);
        else if (message.type === 'error') done(new Error(`receivers: ${message.message}`));
      };
      const onExit = (code: number | null) => done(new Error(`the receivers exited (${code}) before "${type}"`));
      function done(error?: Error, message?: { report?: ReceiversReport }) {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (error) reject(error);
        else resolve(message!);
      }
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return { child, next };
}

const stamp = (i: number) => `peer ${i} at ${(performance.timeOrigin + performance.now()).toFixed(3)} ${FILLER}`;

async function measure(peer: Peer, processes: 1 | 2, dir: string): Promise<PeerResult> {
  const started = await peer.start(processes, dir);
  const receivers = receiversProcess();
  try {
    const ready = receivers.next('ready');
    receivers.child.send({ kind: peer.kind, receivers: started.receivers, paced: MESSAGES, burst: MESSAGES } satisfies ReceiversOrder);
    await ready;
    for (let i = 0; i < WARM_UP_MESSAGES; i++) await started.send(`warm-up ${i} ${FILLER}`);
    const pacedDone = receivers.next('paced');
    const begin = performance.now();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const wait = begin + i * PACED_INTERVAL_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sends.push(started.send(stamp(i)));
    }
    await Promise.all(sends);
    await pacedDone;
    const reported = receivers.next('report');
    let nextIndex = MESSAGES;
    const sender = async () => {
      while (nextIndex < 2 * MESSAGES) await started.send(stamp(nextIndex++));
    };
    await Promise.all(Array.from({ length: BURST_IN_FLIGHT }, sender));
    const { report } = await reported.catch(async (error: unknown) => {
      receivers.child.send({ type: 'finish' });
      console.error(String(error));
      return receivers.next('report');
    });
    const paced = percentiles(report!.pacedLatenciesMs);
    const burst = percentiles(report!.burstLatenciesMs);
    return {
      name: peer.name,
      processes,
      store: peer.store,
      p50Ms: paced.p50Ms,
      p99Ms: paced.p99Ms,
      burstP50Ms: burst.p50Ms,
      burstP99Ms: burst.p99Ms,
      deliveriesPerSecond: report!.burstLatenciesMs.length / (report!.burstSpanMs / 1000),
      missing: report!.missing,
    };
  } finally {
    receivers.child.kill('SIGTERM');
    for (const child of started.children) await child.stop();
    await started.cleanUp();
  }
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One row per peer and number of processes: the medians of its rounds, and of its rounds' ratios to Socket.IO's. */
function sectionLines(rounds: PeerResult[][], loadAtStart: number, twoProcessesSkipped?: string): string[] {
  const f = (x: number) => x.toFixed(1);
  const rows = rounds[0].map(({ name, processes }) => {
    const mine = rounds.map((round) => round.find((r) => r.name === name && r.processes === processes)!);
    const theirs = rounds.map((round) => round.find((r) => r.name === socketIo.name && r.processes === processes)!);
    const m = (pick: (r: PeerResult) => number) => median(mine.map(pick));
    const ratio = (pick: (r: PeerResult) => number) => median(mine.map((r, i) => pick(r) / pick(theirs[i]))).toFixed(2);
    const missing = mine.reduce((sum, r) => sum + r.missing, 0);
    return `| ${name} | ${processes} | ${f(m((r) => r.p50Ms))} / ${f(m((r) => r.p99Ms))} | ${f(m((r) => r.burstP50Ms))} / ${f(m((r) => r.burstP99Ms))} | ${m((r) => r.deliveriesPerSecond).toFixed(0)} | ${ratio((r) => r.p50Ms)} / ${ratio((r) => r.p99Ms)} | ${ratio((r) => r.deliveriesPerSecond)} | ${missing} |`;
  });
  return [
    '## Fan-out against Socket.IO and a bare `ws` broadcast (issue 22)',
    '',
    `Measured by \`npm run bench:peers\` (\`bench/peers.ts\`, also the last part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}; **load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end** (a machine shared with other work: compare the ratios, not the figures).`,
    `Sizes: **${RECEIVERS} receivers, ${MESSAGES} messages** at 10 a second, then ${MESSAGES} more sent ${BURST_IN_FLIGHT} in flight (the burst) (\`BENCH_PEERS_RECEIVERS\`, \`BENCH_PEERS_MESSAGES\`; the issue's sizes are 1,000 and 200). The receivers (one socket each, all in one channel or room) run in a process of their own; every send goes by HTTP POST to the first server process; with two processes, half of the receivers are on each. Latency is per delivery: the send's start to the frame at one receiver, on the one clock of this machine.`,
    `Stores: Aviary ${aviary.store}, and \`aviary on PostgreSQL\` in one process too, to tell the store's share from the second process's; Socket.IO ${socketIo.store}; bare \`ws\` ${bareWs.store}, so it has no two-process row.${twoProcessesSkipped ? ` Two processes not measured: ${twoProcessesSkipped}.` : ''}`,
    `Each figure is the median of ${rounds.length} rounds (\`BENCH_PEERS_ROUNDS\`) in which the peers take turns, each round in another order; each ratio is the median of the rounds' ratios against Socket.IO with as many processes in the same round (below 1 is faster for latency, above 1 is more for deliveries). Deliveries per second: the burst's deliveries over the time from its first send to its last delivery; the one receivers' process counts in it as much as the server does. Deliveries missing: those that had not come ${WAIT_MS / 1000} s (\`BENCH_PEERS_WAIT_MS\`) after the burst's last send, summed over the rounds (the figures of such a round are those of the deliveries that came).`,
    '',
    '| peer | processes | 10/s: p50 / p99 ms | burst: p50 / p99 ms | deliveries/s (burst) | × Socket.IO, 10/s p50 / p99 | × Socket.IO, deliveries/s | deliveries missing |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0];
  console.log(`peers: ${RECEIVERS} receivers, ${MESSAGES} messages at 10/s then a burst of ${MESSAGES}; load average ${loadAtStart.toFixed(1)}`);
  const root = mkdtempSync(join(tmpdir(), 'aviary-peers-bench-'));
  const rounds: PeerResult[][] = [];
  try {
    const twoProcessesSkipped = await unreachable();
    let n = 0;
    const run = async (peer: Peer, processes: 1 | 2): Promise<PeerResult> => {
      const dir = join(root, String(n++));
      mkdirSync(dir);
      const result = await measure(peer, processes, dir);
      console.log(`${peer.name}, ${processes} process(es): 10/s p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms; burst p50 ${result.burstP50Ms.toFixed(1)} ms, p99 ${result.burstP99Ms.toFixed(1)} ms; ${result.deliveriesPerSecond.toFixed(0)} deliveries/s; missing ${result.missing}; load ${loadavg()[0].toFixed(1)}`);
      return result;
    };
    const cases: [Peer, 1 | 2][] = [[socketIo, 1], [aviary, 1], [bareWs, 1]];
    if (!twoProcessesSkipped) cases.push([aviaryOnPostgres, 1], [socketIo, 2], [aviary, 2]);
    for (let round = 0; round < ROUNDS; round++) {
      const turn = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
      const results: PeerResult[] = [];
      for (const [peer, processes] of turn) results.push(await run(peer, processes));
      rounds.push(cases.map(([peer, processes]) => results.find((r) => r.name === peer.name && r.processes === processes)!));
    }
    const lines = sectionLines(rounds, loadAtStart, twoProcessesSkipped);
    writeSection(lines);
    console.log(lines.join('\n'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
