// The stream's benchmarks: idle WebSocket clients on one process (its RSS), and a channel message fanned out
// to 1,000 online members against a bare `ws` broadcast of the same payload, measured in the same run; then
// a reaction to each of those messages, and an edit of each, fanned out to the same members.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { createChannel } from '../packages/server/src/core/commands/channels.js';
import { createTeam } from '../packages/server/src/core/commands/people.js';
import { hashToken, newSecret, newUserId } from '../packages/server/src/store/ids.js';
import { insertUser } from '../packages/server/src/store/rows/users.js';
import { openStore } from '../packages/server/src/store/store.js';
import { startChild, type Child } from './child.js';
import { storeContext } from '../packages/server/src/core/context.js';
import { cliActor } from '../packages/server/src/core/audit/record.js';

export const IDLE_CLIENTS = Number(process.env.BENCH_STREAM_CLIENTS ?? 10_000);
export const CHANNEL_MEMBERS = 1_000;
const FANOUT_SAMPLES = Number(process.env.BENCH_STREAM_SAMPLES ?? 200);
/** Sent first and not counted: both servers' code paths warm up before anything is measured. */
const WARM_UP_SAMPLES = 20;
const CONNECTING_AT_ONCE = 100;

export interface StreamBench {
  clients: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  fanout: Latency;
  /** reactions.add on a message of the channel → the last member has reaction.added. */
  reactionFanout: Latency;
  /** chat.updateMessage of a message of the channel → the last member has message.updated. */
  editFanout: Latency;
  bareBroadcast: Latency;
  payloadBytes: number;
}

export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

/** A team of `people`, each with a session; a public channel of the first CHANNEL_MEMBERS. */
async function seedStreamTeam(dataDir: string, people: number): Promise<{ sessions: string[]; channelId: string }> {
  const store = openStore({ dataDir });
  await store.migrate();
  const db = store.db;
  const now = Date.now();
  const team = await createTeam(storeContext(db, () => now), cliActor, { name: 'Stream bench' });
  const sessions: string[] = [];
  const users = await db.transaction().execute(async (tx) => {
    const made = [];
    for (let i = 0; i < people; i++) {
      const user = await insertUser(tx, { id: newUserId(), team_id: team.id, email: `streamer${i}@example.test`, first_name: 'Streamer', last_name: String(i), created_at: now });
      const token = newSecret('as_s_');
      await tx.insertInto('sessions').values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + 86_400_000 }).execute();
      sessions.push(token);
      made.push(user);
    }
    return made;
  });
  const members = users.slice(1, CHANNEL_MEMBERS).map((user) => user.id);
  const { channel } = await createChannel(storeContext(db, () => now), { user: users[0], appId: null }, { name: 'all-hands', type: 'public', members });
  await store.close();
  return { sessions, channelId: channel.id };
}

/**
 * Opens `count` clients with `open(i)`, CONNECTING_AT_ONCE at a time, each ready once open (or, with
 * `untilHello`, once the stream's hello came); every frame goes to `onFrame`.
 */
async function connectClients(count: number, open: (i: number) => WebSocket, onFrame: (data: Buffer) => void, untilHello: boolean): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < count; start += CONNECTING_AT_ONCE) {
    const batch = Array.from({ length: Math.min(CONNECTING_AT_ONCE, count - start) }, (_, k) => start + k);
    await Promise.all(
      batch.map(
        (i) =>
          new Promise<void>((resolve, reject) => {
            const socket = open(i);
            sockets[i] = socket;
            socket.once('error', reject);
            if (!untilHello) socket.once('open', () => resolve());
            socket.on('message', (data: Buffer) => {
              if (untilHello && data.toString('latin1').startsWith('{"type":"hello"')) resolve();
              onFrame(data);
            });
          }),
      ),
    );
  }
  return sockets;
}

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

export function percentiles(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

/**
 * Sends FANOUT_SAMPLES changes one after another with `send(i)` and measures, for each, the time from
 * the send to the moment the last of the `expected` receivers has its frame (one that `sampleOf` reads
 * as sample `i`).
 */
async function measureFanout(expected: number, send: (i: number) => Promise<void>, arrivals: Arrivals, sampleOf: (frame: string) => number | undefined): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARM_UP_SAMPLES + FANOUT_SAMPLES; i++) {
    let arrived = 0;
    const all = new Promise<number>((resolve) => {
      arrivals.onFrame = (frame) => {
        if (sampleOf(frame) === i && ++arrived === expected) resolve(performance.now());
      };
    });
    const sentAt = performance.now();
    await send(i);
    const took = (await all) - sentAt;
    if (i >= WARM_UP_SAMPLES) samples.push(took);
  }
  return samples;
}

/** Where the clients' frames go: to the measurement under way. */
interface Arrivals {
  onFrame?: (frame: string) => void;
}

/** A new message, or an edit: its text starts with `sample <i> `. */
const textSample =
  (type: string) =>
  (frame: string): number | undefined => {
    if (!frame.includes(`"type":"${type}"`)) return undefined;
    const match = /"text":"sample (\d+) /.exec(frame);
    return match ? Number(match[1]) : undefined;
  };

/** A reaction to the message of sample i (its uid). */
const reactionSample =
  (uids: readonly string[]) =>
  (frame: string): number | undefined => {
    if (!frame.includes('"type":"reaction.added"')) return undefined;
    const match = /"uid":"([^"]+)"/.exec(frame);
    return match ? uids.indexOf(match[1]) : undefined;
  };

/** Each side (the server, this process) holds a descriptor per client: the limit must allow that. */
function requireDescriptors(needed: number): void {
  const limit = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  if (Number.isFinite(limit) && limit < needed) {
    throw new Error(`the stream bench opens ${IDLE_CLIENTS} WebSockets: raise the open-file limit to at least ${needed} (ulimit -n ${needed}) and run it again`);
  }
}

export async function measureStream(dataDir: string): Promise<StreamBench> {
  requireDescriptors(IDLE_CLIENTS + 1000);
  const { sessions, channelId } = await seedStreamTeam(dataDir, IDLE_CLIENTS);
  const filler = 'x'.repeat(200);
  const arrivals: Arrivals = {};
  let lastFrame = '';
  const onFrame = (data: Buffer) => {
    const frame = data.toString();
    if (frame.includes('"type":"message.created"') && frame.includes('"text":"sample ')) lastFrame = frame;
    arrivals.onFrame?.(frame);
  };

  const aviary: Child = await startChild('./servers/aviary.ts', [dataDir]);
  const pid = aviary.process.pid!;
  const rssBeforeMb = rssMb(pid);
  const wsUrl = `${aviary.url.replace(/^http/, 'ws')}/api/stream`;
  const clients = await connectClients(
    IDLE_CLIENTS,
    (i) => new WebSocket(wsUrl, { headers: { authorization: `Bearer ${sessions[i]}` }, perMessageDeflate: false }),
    onFrame,
    true,
  );
  const rssAfterMb = rssMb(pid);
  const call = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const response = await fetch(`${aviary.url}/v1/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sessions[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    if (response.status !== 200) throw new Error(`${method} failed: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const uids: string[] = [];
  const fanout = await measureFanout(CHANNEL_MEMBERS, async (i) => {
    uids[i] = ((await call('chat.sendFromComposer', { to: channelId, text: `sample ${i} ${filler}` })).message as { uid: string }).uid;
  }, arrivals, textSample('message.created'));
  const reactionFanout = await measureFanout(CHANNEL_MEMBERS, async (i) => {
    await call('reactions.add', { messageUid: uids[i], emoji: '👍' });
  }, arrivals, reactionSample(uids));
  const editFanout = await measureFanout(CHANNEL_MEMBERS, async (i) => {
    await call('chat.updateMessage', { messageUid: uids[i], text: `sample ${i} edited ${filler}` });
  }, arrivals, textSample('message.updated'));
  const payloadBytes = Buffer.byteLength(lastFrame);
  for (const client of clients) client.terminate();
  await aviary.stop();

  const bare = await startChild('./servers/bareWs.ts', []);
  const bareUrl = bare.url.replace(/^http/, 'ws');
  const bareClients = await connectClients(CHANNEL_MEMBERS, () => new WebSocket(bareUrl, { perMessageDeflate: false }), onFrame, false);
  // The very frame the members got from Aviary, its sample number changed.
  const sampleFrame = lastFrame;
  const bareBroadcast = await measureFanout(CHANNEL_MEMBERS, async (i) => {
    const response = await fetch(bare.url, { method: 'POST', body: sampleFrame.replace(/"text":"sample \d+ /, `"text":"sample ${i} `) });
    await response.arrayBuffer();
  }, arrivals, textSample('message.created'));
  for (const client of bareClients) client.terminate();
  await bare.stop();
  return {
    clients: IDLE_CLIENTS,
    rssBeforeMb,
    rssAfterMb,
    fanout: percentiles(fanout),
    reactionFanout: percentiles(reactionFanout),
    editFanout: percentiles(editFanout),
    bareBroadcast: percentiles(bareBroadcast),
    payloadBytes,
  };
}

/** The stream's rows of a BENCHMARKS.md table of `| figure | value | met |`: (g), (h), (h2), (h3), (h′). */
export function streamRows(s: StreamBench): string[] {
  const members = CHANNEL_MEMBERS.toLocaleString('en');
  return [
    `| (g) ${s.clients.toLocaleString('en')} idle WebSocket clients on one server process: its RSS (before they connected: ${s.rssBeforeMb.toFixed(0)} MB) | ${s.rssAfterMb.toFixed(0)} MB | ${s.rssAfterMb < 1024 ? 'yes' : 'no'} (target < 1 GB) |`,
    `| (h) a channel message to ${members} online members (of the ${s.clients.toLocaleString('en')} connected): client API send → the last member has the frame, p50 / p99 | ${s.fanout.p50Ms.toFixed(1)} / ${s.fanout.p99Ms.toFixed(1)} ms | ${s.fanout.p99Ms < 100 ? 'yes' : 'no'} (target p99 < 100 ms) |`,
    `| (h2) a reaction (reactions.add) to a message of that channel → the last of the ${members} members has reaction.added, p50 / p99 | ${s.reactionFanout.p50Ms.toFixed(1)} / ${s.reactionFanout.p99Ms.toFixed(1)} ms | ${s.reactionFanout.p99Ms < 100 ? 'yes' : 'no'} (target p99 < 100 ms) |`,
    `| (h3) an edit (chat.updateMessage) of a message of that channel → the last of the ${members} members has message.updated, p50 / p99 | ${s.editFanout.p50Ms.toFixed(1)} / ${s.editFanout.p99Ms.toFixed(1)} ms | ${s.editFanout.p99Ms < 100 ? 'yes' : 'no'} (target p99 < 100 ms) |`,
    `| (h′) a bare \`ws\` server broadcasting the same ${s.payloadBytes}-byte frame to ${members} clients on an HTTP POST, p50 / p99 | ${s.bareBroadcast.p50Ms.toFixed(1)} / ${s.bareBroadcast.p99Ms.toFixed(1)} ms | – |`,
    `| (h)/(h′), p50 and p99 (the clients run in the bench's one process, so both include the same client cost) | ${(s.fanout.p50Ms / s.bareBroadcast.p50Ms).toFixed(2)} and ${(s.fanout.p99Ms / s.bareBroadcast.p99Ms).toFixed(2)} | – |`,
    `| (h2)/(h′) and (h3)/(h′), p50 and p99: a reaction's and an edit's fan-out against the bare broadcast of the same run | ${(s.reactionFanout.p50Ms / s.bareBroadcast.p50Ms).toFixed(2)} and ${(s.reactionFanout.p99Ms / s.bareBroadcast.p99Ms).toFixed(2)}; ${(s.editFanout.p50Ms / s.bareBroadcast.p50Ms).toFixed(2)} and ${(s.editFanout.p99Ms / s.bareBroadcast.p99Ms).toFixed(2)} | – |`,
  ];
}

/**
 * Run alone (`npm run bench:stream`), the stream's figures go to a section of their own, with the load
 * the machine was under.
 */
function streamSection(s: StreamBench, loadAtStart: number, loadAtEnd: number): string[] {
  return [
    '## The stream alone: idle clients, and a message, a reaction and an edit fanned out (issue 23)',
    '',
    `Measured by \`npm run bench:stream\` (\`bench/stream.ts\` alone; \`npm run bench\` measures the same in its first section) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}; ` +
      `**load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end**: the machine is shared with other engineers' builds and test runs, and the ${CHANNEL_MEMBERS.toLocaleString('en')} members' sockets run in the bench's own process, so these figures move with that load, the tail most. ` +
      `One server process with ${s.clients.toLocaleString('en')} streams open, ${CHANNEL_MEMBERS.toLocaleString('en')} of them members of one channel; ${FANOUT_SAMPLES} samples each, one at a time, after ${WARM_UP_SAMPLES} not counted: a message sent, a reaction added to each of those messages, then each edited, each timed from the call to the moment the last member has its frame.`,
    '',
    '| figure | value | met |',
    '|---|---|---|',
    ...streamRows(s),
    '',
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { writeSection } = await import('./report.js');
  const loadAtStart = loadavg()[0];
  const dir = mkdtempSync(join(tmpdir(), 'aviary-stream-bench-'));
  try {
    const figures = await measureStream(dir);
    const lines = streamSection(figures, loadAtStart, loadavg()[0]);
    writeSection(lines);
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
