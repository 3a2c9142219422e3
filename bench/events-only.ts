// Only the event figures of `npm run bench`, (e) and (f), measured the same way, for quick iteration:
//   npx tsx bench/events-only.ts
// BENCH_HISTORY_SIZE / BENCH_EVENTS_PER_APP as for bench/run.ts; BENCH_LATENCY_SAMPLES (500);
// BENCH_CPU_PROF=<dir> runs the server child under `node --cpu-prof --cpu-prof-dir=<dir>`;
// BENCH_SERVER_NODE_ARGS adds node options to the server child (e.g. `--import /path/to/instrument.mjs`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Child } from './child.js';
import { botWithListener, queueBenchEvents } from './events.js';
import { seedBenchData } from './fixtures.js';

const HISTORY_SIZE = Number(process.env.BENCH_HISTORY_SIZE ?? 20_000);
const EVENT_APPS = 8;
const EVENTS_PER_APP = Number(process.env.BENCH_EVENTS_PER_APP ?? 2500);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 500);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;

/** CPU time (user + system) a process used so far, in ms, from /proc (Linux); NaN elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The server child's process id, known as soon as it is spawned (events may arrive before it prints its URL). */
let serverPid: number | undefined;

/** Like bench/child.ts's startChild, with optional profiling of the server process. */
async function startServer(dir: string): Promise<Child> {
  const path = fileURLToPath(new URL('./servers/aviary.ts', import.meta.url));
  const flags = [
    ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []),
    ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
  ];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', path, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  serverPid = child.pid;
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'aviary-bench-events-'));
  try {
    const data = await seedBenchData(dir, HISTORY_SIZE);
    const queued = await queueBenchEvents(dir, data.teamId, data.developerId, EVENT_APPS, EVENTS_PER_APP);
    const bot = await botWithListener(dir, data.teamId, data.developerId);
    let received = 0;
    let first = 0;
    let last = 0;
    // CPU used from the first event received to the last: the delivery, without the server's start-up.
    let serverCpuBefore = Number.NaN;
    let listenerCpuBefore = process.cpuUsage();
    let serverCpuMs = Number.NaN;
    let listenerCpuMs = Number.NaN;
    const allDelivered = new Promise<void>((resolve) =>
      queued.listener.onEvent((_name, at) => {
        if (received++ === 0) {
          first = at;
          serverCpuBefore = serverPid ? cpuMsOf(serverPid) : Number.NaN;
          listenerCpuBefore = process.cpuUsage();
        }
        last = at;
        if (received === queued.total) {
          if (serverPid) serverCpuMs = cpuMsOf(serverPid) - serverCpuBefore;
          const listenerCpu = process.cpuUsage(listenerCpuBefore);
          listenerCpuMs = (listenerCpu.user + listenerCpu.system) / 1000;
          resolve();
        }
      }),
    );
    const server = await startServer(dir);
    await allDelivered;
    const perSecond = (queued.total - 1) / ((last - first) / 1000);
    console.log(`(e) events delivered to a loopback listener (signed, verified by the SDK): ${perSecond.toFixed(0)} events/s (${queued.total} events, ${EVENT_APPS} apps, ${(last - first).toFixed(0)} ms)`);
    console.log(
      `    CPU per event, first event to last: server ${((serverCpuMs * 1000) / queued.total).toFixed(0)} µs, ` +
        `listener (this process: HTTP server, SDK verification) ${((listenerCpuMs * 1000) / queued.total).toFixed(0)} µs`,
    );

    const latencies: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const arrived = new Promise<number>((resolve) => bot.listener.onEvent((_name, at) => resolve(at)));
      const sentAt = performance.now();
      const response = await fetch(`${server.url}/v1/chat.sendMessage`, {
        method: 'POST',
        headers: form,
        body: new URLSearchParams({ token: data.tokens[1], to: bot.botUserId, text: `ping ${i}` }),
      });
      if (response.status !== 200) throw new Error(`sendMessage to the bot failed: ${await response.text()}`);
      answered.push(performance.now() - sentAt);
      latencies.push((await arrived) - sentAt);
    }
    await server.stop();
    await Promise.all([queued.listener.close(), bot.listener.close()]);
    latencies.sort((a, b) => a - b);
    answered.sort((a, b) => a - b);
    const at = (q: number, list = latencies) => list[Math.floor(q * list.length)];
    console.log(`(f) chat.sendMessage → bot listener receives chat.receiveMessage: p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`);
    console.log(`    (the sendMessage answer itself arrived after p50 ${at(0.5, answered).toFixed(2)} ms, p99 ${at(0.99, answered).toFixed(2)} ms)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
