import { streamCloseCodes, type ResyncReason, type StreamControlFrame } from '@aviary/protocol';
import type { WebSocket } from 'ws';
import { mayReceive, type Reader } from '../../core/stream/audience.js';
import type { StreamStart } from '../../core/queries/stream.js';
import { EntryOrder } from './entryOrder.js';
import type { StreamEntry } from './streamEntry.js';

export interface ConnectionLimits {
  /** Unsent bytes past which the connection is cut off as a slow consumer. */
  maxBufferedBytes: number;
  /** Entries that may wait for a connection while it replays; past that it is too far behind. */
  maxPending: number;
}

/** WebSocket close reasons are limited to 123 bytes. */
const RESYNC_REASON = 'resync: reload, then reconnect without a cursor';
const SLOW_REASON = 'too slow to keep up: reload, then reconnect without a cursor';

/**
 * One person's open stream. It starts by replaying what it missed (the gateway reads it from the store)
 * while the team's live entries are held; then it goes live (EntryOrder: each position once, in order).
 * The channels it keeps in memory are those of `membershipFrom`, and later membership entries update them;
 * whether its person is a guest is read after that position, and later role changes update it.
 */
export class StreamConnection implements Reader {
  readonly channels: Set<string>;
  guest: boolean;
  /** Answered the last ping (the heartbeat cuts off a peer that did not). */
  alive = true;
  private readonly order: EntryOrder<StreamEntry>;
  private readonly membershipFrom: number;
  /** The last cursor the client was sent; the heartbeat sends a newer one when entries passed unseen. */
  private cursorSent: number;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    readonly userId: string,
    readonly teamId: string,
    /** The session it stands for: when that session ends, the stream closes. */
    readonly sessionHash: string,
    start: StreamStart & { from: number },
    private readonly limits: ConnectionLimits,
    /** Called once, as soon as the connection stops taking entries (before its socket has finished closing). */
    private readonly onClosed: (connection: StreamConnection) => void,
  ) {
    this.channels = new Set(start.channels);
    this.guest = start.guest;
    this.membershipFrom = start.seq;
    this.order = new EntryOrder(start.from, (entry) => this.handle(entry), limits.maxPending);
    this.cursorSent = start.from;
    socket.once('close', () => this.markClosed());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** From the team's feed: held while the replay runs, handled at once afterwards. */
  hand(entry: StreamEntry): void {
    if (!this.order.fromFeed(entry)) this.resync('tooFarBehind');
  }

  /** From the replay, in order. */
  replay(entry: StreamEntry): void {
    this.order.fromReplay(entry);
  }

  /** The replay is done: what the feed handed meanwhile follows, minus what the replay already covered. */
  goLive(): void {
    this.order.goLive();
  }

  private handle(entry: StreamEntry): void {
    const change = entry.membership;
    if (change && entry.seq > this.membershipFrom) {
      if ('joined' in change) {
        if (change.joined.includes(this.userId)) this.channels.add(change.channelId);
      } else if (change.left.includes(this.userId)) {
        this.channels.delete(change.channelId);
      }
    }
    if (entry.role?.userId === this.userId && entry.seq > this.membershipFrom) this.guest = entry.role.role === 'guest';
    if (!mayReceive(this, entry.audience)) return;
    this.cursorSent = entry.seq;
    this.send(entry.frame);
  }

  sendControl(frame: StreamControlFrame): void {
    if (this.closed) return;
    if ('cursor' in frame) this.cursorSent = Number(frame.cursor);
    this.send(Buffer.from(JSON.stringify(frame)));
  }

  /**
   * Sends the position reached and resolves once it (and so everything before it) has been handed to the
   * operating system, or the socket closed: the replay waits for this rather than outrun the client.
   */
  flushed(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.cursorSent = this.order.position;
    const frame = Buffer.from(JSON.stringify({ type: 'cursor', cursor: String(this.order.position) }));
    return new Promise((resolve) => this.socket.send(frame, { binary: false }, () => resolve()));
  }

  /**
   * A frame that is not kept (typing, presence): no cursor, so it changes nothing of the order. None goes
   * before the stream is live: the presence snapshot that follows the replay tells what those would have.
   */
  sendLive(frame: Buffer): void {
    if (!this.closed && !this.order.replaying) this.send(frame);
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  private send(frame: Buffer): void {
    this.socket.send(frame, { binary: false });
    // A client that stopped reading: its unsent frames stop at the bound, never grow the server's memory.
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) this.close(streamCloseCodes.resync, SLOW_REASON);
  }

  /** One `resync` frame, then closed: what was missed cannot be replayed. */
  resync(reason: ResyncReason): void {
    this.sendControl({ type: 'resync', reason });
    this.close(streamCloseCodes.resync, RESYNC_REASON);
  }

  /** The server is going away, or holds more than its share: the client reconnects (to another) with its cursor. */
  reconnect(reason = 'the server is restarting: reconnect with your cursor'): void {
    this.sendControl({ type: 'reconnect' });
    this.close(streamCloseCodes.reconnect, reason);
  }

  /**
   * Called on each heartbeat: a peer that did not answer the last ping is cut off; otherwise it is
   * pinged again, and told the newest position if entries passed that were not for it.
   */
  heartbeat(): void {
    if (this.closed) return;
    if (!this.alive) {
      this.terminate();
      return;
    }
    this.alive = false;
    if (!this.order.replaying && this.order.position > this.cursorSent) this.sendControl({ type: 'cursor', cursor: String(this.order.position) });
    if (!this.closed) this.socket.ping();
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.markClosed();
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.markClosed();
    this.socket.terminate();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.order.stop();
    this.onClosed(this);
  }
}
