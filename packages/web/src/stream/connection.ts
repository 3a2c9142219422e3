/**
 * The page's one WebSocket to `GET /api/stream` (cookie auth: same origin). It keeps the cursor of the
 * last frame handled and resumes after it when the connection drops, with exponential backoff and jitter
 * so that a restarted server is not hit by every page at the same instant. A `resync` frame (or close
 * 4000) drops the cursor and asks the page to reload its state; `reconnect` (server shutting down) just
 * reconnects with the cursor. 1008 (signed out) stops: the page signs in again.
 */
import { streamPath, type StreamDataFrame, type StreamFrame, type StreamLiveFrame } from '@aviary/protocol';
import { PresenceTracker } from './presence.js';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'signedOut';

export interface StreamHandlers {
  /** A data frame, in stream order. Applying one twice must be harmless (it may come again on resume). */
  frames(frames: StreamDataFrame[]): void;
  /** The state after a gap the stream could not replay (and on the first connection): reload everything. */
  reload(): void;
  state(state: ConnectionState): void;
  /** Typing and presence: not kept, no cursor, applied as they come. */
  live?(frame: StreamLiveFrame): void;
  /** Who of the team is online, after each presence frame (undefined until the server has listed them). */
  presence?(online: ReadonlySet<string> | undefined): void;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15_000;
const RESYNC_CLOSE = 4000;
const SIGNED_OUT_CLOSE = 1008;
/**
 * The longest a frame waits for the next animation frame. A hidden tab runs none (Chrome pauses them), and
 * its frames must still be applied: they count in the tab's title and make its notifications.
 */
const FLUSH_AT_LATEST_MS = 100;

export class StreamConnection {
  private cursor: string | undefined;
  private socket: WebSocket | undefined;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private needsReload: boolean;
  /** Frames that arrived since the last animation frame: a burst is applied in one render. */
  private pending: StreamDataFrame[] = [];
  /** Set while a flush is scheduled: at the next animation frame, or at this timer, whichever comes first. */
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly presence = new PresenceTracker();

  /**
   * `cursor`: where the page's state stood when it was loaded (the session's streamCursor). The stream
   * then resumes from it, bringing what the loads might have missed, instead of asking for a reload.
   */
  constructor(
    private readonly handlers: StreamHandlers,
    cursor?: string,
  ) {
    this.cursor = cursor;
    this.needsReload = cursor === undefined;
  }

  start(): void {
    this.handlers.state('connecting');
    this.open();
  }

  /** Closes the stream for good: nothing more reaches the handlers, not even frames already received. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.flushTimer);
    this.pending = [];
    this.socket?.close(1000);
  }

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const query = this.cursor ? `?cursor=${encodeURIComponent(this.cursor)}` : '';
    const socket = new WebSocket(`${scheme}://${location.host}${streamPath}${query}`);
    this.socket = socket;
    socket.onmessage = (event) => this.receive(String(event.data));
    socket.onclose = (event) => this.closed(socket, event.code);
  }

  private receive(data: string): void {
    if (this.stopped) return; // the socket is closing: what it still brings is for no one
    let frame: StreamFrame;
    try {
      frame = JSON.parse(data) as StreamFrame;
    } catch {
      return;
    }
    if (frame.type === 'hello') {
      this.attempt = 0;
      this.cursor = frame.cursor;
      this.presence.connected();
      this.handlers.state('live');
      // A fresh connection (or one after a resync) loads its state after hello, so nothing falls between.
      if (this.needsReload) {
        this.needsReload = false;
        this.handlers.reload();
      }
      return;
    }
    if (frame.type === 'resync') {
      this.dropCursor();
      return;
    }
    if (frame.type === 'reconnect') return; // the close (1012) follows; resume with the cursor
    if (frame.type === 'typing' || frame.type === 'presence') {
      if (frame.type === 'presence') this.handlers.presence?.(this.presence.apply(frame));
      this.handlers.live?.(frame);
      return;
    }
    this.cursor = frame.cursor;
    if (frame.type === 'cursor') return;
    this.pending.push(frame);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_AT_LATEST_MS);
      requestAnimationFrame(() => this.flush());
    }
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) this.handlers.frames(batch);
  }

  private dropCursor(): void {
    this.cursor = undefined;
    this.needsReload = true;
  }

  private closed(socket: WebSocket, code: number): void {
    if (socket !== this.socket || this.stopped) return;
    this.flush();
    if (code === SIGNED_OUT_CLOSE) {
      this.handlers.state('signedOut');
      return;
    }
    if (code === RESYNC_CLOSE) this.dropCursor();
    this.handlers.state('reconnecting');
    const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    // Full jitter: anywhere between half the ceiling and the ceiling.
    this.timer = setTimeout(() => this.open(), ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
