import type { StreamFrame } from '@aviary/protocol';
import { expect } from 'vitest';
import { WebSocket } from 'ws';

/**
 * How often a stream may reconnect in one test, and how long one attempt may take. On this 2-core machine,
 * with three processes and the rest of the suite beside them, a process once took 10 s to restart, and an
 * attempt made meanwhile got no hello within 10 s (why is not known). The web client sets no open
 * timeout: it waits as long as an attempt takes.
 */
const maxReconnects = 10;
const openTimeoutMs = 30_000;

/**
 * A stream client that behaves as a real one through a load balancer: when its socket closes (its
 * process died, or said `reconnect`), it opens the stream again at the same address with the last
 * cursor it saw, and carries on. Every frame of every connection is kept, in order.
 */
export interface FollowedStream {
  frames: StreamFrame[];
  /** The texts of the `message.created` frames, in the order they came. */
  texts(): string[];
  /** How many times it opened the stream again. */
  reconnects(): number;
  /** Resolves once a message with this text has come; bounded by `timeoutMs`. */
  waitForText(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the current connection is open and its hello has come. */
  connected(): Promise<void>;
  close(): Promise<void>;
}

/** An upgrade refused with 503 and Retry-After: the stream opens again after that time. */
class RetryingLater extends Error {}

const streamAddress = (baseUrl: string, cursor: string | undefined) =>
  `${baseUrl.replace(/^http/, 'ws')}/api/stream${cursor === undefined ? '' : `?cursor=${cursor}`}`;

/** Opens the stream at `baseUrl` as the session's person and follows it (see FollowedStream). */
export async function followStream(baseUrl: string, sessionToken: string): Promise<FollowedStream> {
  const frames: StreamFrame[] = [];
  let cursor: string | undefined;
  let reconnects = 0;
  let closing = false;
  let failure: Error | undefined;
  let changed = () => {};
  let current: { socket: WebSocket; open: Promise<void> };

  const connect = (): { socket: WebSocket; open: Promise<void> } => {
    const socket = new WebSocket(streamAddress(baseUrl, cursor), { headers: { authorization: `Bearer ${sessionToken}` } });
    const open = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the stream did not open within ${openTimeoutMs} ms`)), openTimeoutMs);
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data)) as StreamFrame;
        if (frame.type === 'hello') (clearTimeout(timer), resolve());
        if (frame.type === 'resync') failure = new Error(`the stream asked for a resync (${frame.reason}) after cursor ${cursor}`);
        if ('cursor' in frame) cursor = frame.cursor;
        frames.push(frame);
        changed();
      });
      socket.once('unexpected-response', (request, response) => {
        clearTimeout(timer);
        refused = true;
        request.destroy();
        // Refused for now (the database is down): open again once Retry-After has passed, as a client does.
        const retryAfter = Number(response.headers['retry-after']);
        if (response.statusCode === 503 && retryAfter > 0) {
          reject(new RetryingLater());
          setTimeout(reconnect, retryAfter * 1000);
        } else {
          reject(new Error(`the upgrade was refused: HTTP ${response.statusCode}`));
        }
      });
      socket.once('error', (error) => (clearTimeout(timer), reject(error)));
    });
    let refused = false;
    // A dead process, or one that said `reconnect`: open again through the same address, after the cursor.
    socket.once('close', () => {
      if (!refused) reconnect();
    });
    return { socket, open };
  };
  const reconnect = () => {
    if (closing) return;
    if (++reconnects > maxReconnects) {
      failure = new Error(`the stream closed more than ${maxReconnects} times`);
      changed();
      return;
    }
    current = connect();
    current.open.catch((error: Error) => {
      if (error instanceof RetryingLater) return;
      failure = error;
      changed();
    });
  };

  current = connect();
  await current.open;
  const texts = () => frames.flatMap((frame) => (frame.type === 'message.created' ? [frame.message.text] : []));
  return {
    frames,
    texts,
    reconnects: () => reconnects,
    async waitForText(text, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!texts().includes(text)) {
        if (failure) throw failure;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`"${text}" did not come within ${timeoutMs} ms (${reconnects} reconnects)`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([new Promise<void>((resolve) => (changed = resolve)), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
    },
    connected: () => current.open,
    async close() {
      closing = true;
      const { socket } = current;
      if (socket.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.terminate();
      await closed;
    },
  };
}

/**
 * What every followed stream must show after a fault: each acknowledged channel message (`acknowledged`,
 * by text), none twice, and in the order of the team's stream (cursors rising).
 */
export function expectEachOnceInOrder(streams: FollowedStream[], acknowledged: string[]): void {
  for (const stream of streams) {
    const texts = stream.texts();
    expect(acknowledged.filter((text) => !texts.includes(text))).toEqual([]);
    expect(new Set(texts).size).toBe(texts.length);
    const cursors = stream.frames.flatMap((frame) => (frame.type === 'message.created' ? [Number(frame.cursor)] : []));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  }
}
