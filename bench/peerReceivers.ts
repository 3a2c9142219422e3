// The peers bench's receivers, in a process of their own (forked with an IPC channel by bench/peers.ts):
// opens one socket per receiver, tells the parent `ready`, then times every delivery of a message whose
// text is `peer <i> at <sent at, ms since the epoch> …` against the clock of this machine.
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { WebSocket } from 'ws';

export type PeerKind = 'aviary' | 'socket.io' | 'ws';

export interface ReceiversOrder {
  kind: PeerKind;
  /** One per receiver: the server it listens to, and (Aviary) its session or (Socket.IO) its room. */
  receivers: { url: string; session?: string; room?: string }[];
  /** Messages 0 … paced − 1 are the paced phase, the `burst` after them the burst. */
  paced: number;
  burst: number;
}

export interface ReceiversReport {
  pacedLatenciesMs: number[];
  burstLatenciesMs: number[];
  /** From the first burst message's send to the last burst delivery. */
  burstSpanMs: number;
  missing: number;
}

const CONNECTING_AT_ONCE = 50;
const now = () => performance.timeOrigin + performance.now();
const SAMPLE = /peer (\d+) at (\d+(?:\.\d+)?) /;

function openOne(order: ReceiversOrder, receiver: ReceiversOrder['receivers'][number], onText: (text: string) => void): Promise<{ close(): void }> {
  return new Promise((resolve, reject) => {
    if (order.kind === 'socket.io') {
      const socket: Socket = io(receiver.url, { transports: ['websocket'], query: { room: receiver.room! }, forceNew: true, reconnection: false });
      socket.on('message', (message: { text: string }) => onText(message.text));
      socket.once('connect', () => resolve({ close: () => socket.disconnect() }));
      socket.once('connect_error', reject);
      return;
    }
    const url = order.kind === 'aviary' ? `${receiver.url.replace(/^http/, 'ws')}/api/stream` : receiver.url.replace(/^http/, 'ws');
    const headers = receiver.session ? { authorization: `Bearer ${receiver.session}` } : undefined;
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    socket.once('error', reject);
    const ready = () => resolve({ close: () => socket.terminate() });
    if (order.kind === 'ws') socket.once('open', ready);
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('{"type":"hello"')) ready();
      else onText(text);
    });
  });
}

async function run(order: ReceiversOrder): Promise<void> {
  const expected = order.receivers.length * (order.paced + order.burst);
  const pacedExpected = order.receivers.length * order.paced;
  const report: ReceiversReport = { pacedLatenciesMs: [], burstLatenciesMs: [], burstSpanMs: 0, missing: expected };
  let burstStart = Infinity;
  let burstEnd = 0;
  let pacedCount = 0;
  const sockets: { close(): void }[] = [];
  const finish = () => {
    report.burstSpanMs = burstEnd - burstStart;
    for (const socket of sockets) socket.close();
    process.send!({ type: 'report', report }, () => process.exit(0));
  };
  const onText = (text: string) => {
    const match = SAMPLE.exec(text);
    if (!match) return;
    const at = now();
    const [index, sentAt] = [Number(match[1]), Number(match[2])];
    if (index < order.paced) {
      report.pacedLatenciesMs.push(at - sentAt);
      if (++pacedCount === pacedExpected) process.send!({ type: 'paced' });
    } else {
      report.burstLatenciesMs.push(at - sentAt);
      burstStart = Math.min(burstStart, sentAt);
      burstEnd = Math.max(burstEnd, at);
    }
    if (--report.missing === 0) finish();
  };
  process.on('message', (message: { type: string }) => {
    if (message.type === 'finish') finish();
  });
  for (let start = 0; start < order.receivers.length; start += CONNECTING_AT_ONCE) {
    sockets.push(...(await Promise.all(order.receivers.slice(start, start + CONNECTING_AT_ONCE).map((receiver) => openOne(order, receiver, onText)))));
  }
  process.send!({ type: 'ready' });
}

process.once('message', (order: ReceiversOrder) => void run(order).catch((error: unknown) => {
  process.send!({ type: 'error', message: String(error) }, () => process.exit(1));
}));
process.on('disconnect', () => process.exit(0));
