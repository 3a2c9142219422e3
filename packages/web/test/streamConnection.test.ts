import type { StreamDataFrame } from '@aviary/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamConnection, type StreamHandlers } from '../src/stream/connection.js';

/**
 * When the page's stream applies what it receives. The browser tests drive the real connection against the
 * server; here it runs with stand-ins for what a page gives it (its WebSocket, its location, its animation
 * frames) so that each moment can be chosen: a frame waiting for an animation frame that a hidden tab never
 * runs, and the connection stopped while a frame waits.
 */
class PageSocket {
  static opened: PageSocket[] = [];
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {
    PageSocket.opened.push(this);
  }
  close(code: number) {
    this.closedWith = code;
  }
  bring(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

let animationFrames: Array<() => void> = [];
const runAnimationFrames = () => {
  const due = animationFrames;
  animationFrames = [];
  for (const callback of due) callback();
};

beforeEach(() => {
  vi.useFakeTimers();
  PageSocket.opened = [];
  animationFrames = [];
  vi.stubGlobal('WebSocket', PageSocket);
  vi.stubGlobal('location', new URL('https://chat.example/'));
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => animationFrames.push(callback));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const created = (cursor: string) => ({ type: 'message.created', cursor }) as unknown as StreamDataFrame;

function open(): { socket: PageSocket; applied: StreamDataFrame[][]; connection: StreamConnection } {
  const applied: StreamDataFrame[][] = [];
  const handlers: StreamHandlers = { frames: (frames) => applied.push(frames), reload: () => undefined, state: () => undefined };
  const connection = new StreamConnection(handlers, 'c0');
  connection.start();
  const socket = PageSocket.opened[0]!;
  expect(socket.url).toBe('wss://chat.example/api/stream?cursor=c0');
  socket.bring({ type: 'hello', cursor: 'c0', userId: 'u:bob' });
  return { socket, applied, connection };
}

describe('the web client’s stream, applying frames', () => {
  it('applies a burst in one batch at the next animation frame', () => {
    const { socket, applied } = open();
    socket.bring(created('c1'));
    socket.bring(created('c2'));
    expect(applied).toEqual([]);
    runAnimationFrames();
    expect(applied).toEqual([[created('c1'), created('c2')]]);
    vi.advanceTimersByTime(1_000);
    expect(applied).toHaveLength(1);
  });

  it('applies frames within 100 ms in a hidden tab, where no animation frame runs', () => {
    const { socket, applied } = open();
    socket.bring(created('c1'));
    vi.advanceTimersByTime(99);
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(applied).toEqual([[created('c1')]]);
    // The animation frame that comes when the tab shows again finds nothing left to apply.
    runAnimationFrames();
    expect(applied).toHaveLength(1);
  });

  it('once stopped, applies nothing: neither a frame waiting for its batch nor one the closing socket still brings', () => {
    const { socket, applied, connection } = open();
    socket.bring(created('c1'));
    connection.stop();
    expect(socket.closedWith).toBe(1000);
    socket.bring(created('c2'));
    runAnimationFrames();
    vi.advanceTimersByTime(60_000);
    expect(applied).toEqual([]);
    expect(PageSocket.opened).toHaveLength(1);
  });
});
