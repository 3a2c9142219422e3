import { streamCloseCodes, type ResyncReason } from '@aviary/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Bus } from '../../bus/bus.js';
import type { PresenceStore } from '../../bus/presenceStore.js';
import type { StreamConfig } from '../../config.js';
import { liveCredentialHashes } from '../../core/queries/sessions.js';
import { credentialsTopic, parseCredentialsNotice } from '../../core/effects/credentialsNotice.js';
import { pruneStream } from '../../core/commands/pruneStream.js';
import { readStreamEntries, resumeFacts, streamStart, teamStreamPositions } from '../../core/queries/stream.js';
import type { UsersTable } from '../../store/schema.js';
import type { Db } from '../../store/store.js';
import { presenceSnapshot } from './liveFrames.js';
import { Presence, PRESENCE_RENEW_MS } from './presence.js';
import { StreamConnection } from './streamConnection.js';
import { toStreamEntry } from './streamEntry.js';
import { STREAM_PAGE, TeamFeed } from './teamFeed.js';

export interface GatewayContext {
  db: Db;
  bus: Bus;
  log: FastifyBaseLogger;
  now: () => number;
  config: { stream: StreamConfig; shutdownGraceMs: number };
}

/** Who opens a stream, as the upgrade authenticated them. */
export interface StreamOpener {
  person: UsersTable;
  sessionHash: string;
  /** Resume after this position; absent for a fresh start. */
  cursor?: number;
}

/** How often old entries and spent tickets are pruned. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The WebSocket side of the stream in this process: the sockets (`ws`, attached to the HTTP server by
 * the upgrade handler), one feed per team with connections here, and the timers that keep them honest:
 * heartbeats, the catch-up look at the store, the session check, pruning.
 */
export class StreamGateway {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false, clientTracking: false });
  private readonly feeds = new Map<string, TeamFeed>();
  private readonly connections = new Set<StreamConnection>();
  /** Every socket not yet closed, streaming or not (shutdown cuts those that linger). */
  private readonly sockets = new Set<WebSocket>();
  /** Open and opening streams per person. */
  private readonly perPerson = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Streams told to reconnect a little later (shed). */
  private readonly sheddings = new Set<NodeJS.Timeout>();
  private readonly openings = new Set<Promise<void>>();
  private accepting = true;
  private readonly stopHearingCredentials: () => void;
  /** Who is online, from the streams open here and on the other processes. */
  readonly presence: Presence;

  constructor(
    private readonly ctx: GatewayContext,
    presenceStore: PresenceStore,
  ) {
    const { stream } = ctx.config;
    this.presence = new Presence({ store: presenceStore, bus: ctx.bus, now: ctx.now, log: ctx.log });
    this.every(PRESENCE_RENEW_MS, () => this.presence.renew());
    this.every(stream.heartbeatMs, () => this.heartbeat());
    this.every(stream.catchUpMs, () => this.catchUp());
    this.every(stream.sessionCheckMs, () => this.checkSessions());
    this.every(PRUNE_EVERY_MS, () => this.prune());
    this.stopHearingCredentials = ctx.bus.subscribe(credentialsTopic, (payload) => this.credentialsEnded(payload));
  }

  get isAccepting(): boolean {
    return this.accepting;
  }

  /** Open streams in this process (for the metrics gauge). */
  openConnections(): number {
    return this.connections.size;
  }

  /**
   * Tells `count` of the open streams (picked at random) to reconnect, each at a random moment within
   * `spreadMs`, so that they open again through the load balancer without coming back all at once.
   */
  shed(count: number, spreadMs: number): void {
    const open = [...this.connections];
    for (let i = 0; i < count && open.length > 0; i++) {
      const [connection] = open.splice(Math.floor(Math.random() * open.length), 1);
      const timer = setTimeout(() => {
        this.sheddings.delete(timer);
        connection.reconnect('this server holds more than its share of streams: reconnect with your cursor');
      }, Math.random() * spreadMs);
      timer.unref();
      this.sheddings.add(timer);
    }
  }

  /** The person's open (and opening) streams in this process. */
  connectionsOf(userId: string): number {
    return this.perPerson.get(userId) ?? 0;
  }

  /** Takes a socket the upgrade accepted: hello, the replay of what the client missed, then live entries. */
  open(socket: WebSocket, opener: StreamOpener): void {
    const userId = opener.person.id;
    this.perPerson.set(userId, this.connectionsOf(userId) + 1);
    this.presence.opened(opener.person.team_id, userId);
    this.sockets.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.presence.closed(opener.person.team_id, userId);
      const left = this.connectionsOf(userId) - 1;
      if (left > 0) this.perPerson.set(userId, left);
      else this.perPerson.delete(userId);
      this.ctx.log.debug({ userId, open: left }, 'a stream closed');
    });
    socket.on('error', () => undefined);
    const opening = this.start(socket, opener)
      .catch((error: unknown) => {
        this.ctx.log.error({ err: error, userId: opener.person.id }, 'the stream could not start');
        socket.close(1011, 'the stream could not start: reconnect with your cursor');
      })
      .finally(() => this.openings.delete(opening));
    this.openings.add(opening);
  }

  private async start(socket: WebSocket, { person, sessionHash, cursor }: StreamOpener): Promise<void> {
    const { db, config } = this.ctx;
    const start = await streamStart(db, person.team_id, person.id);
    if (!start) throw new Error(`no team ${person.team_id} for ${person.id}`);
    // Closed while the start was read: nothing to attach, and no close event will come to detach it.
    if (socket.readyState !== socket.OPEN) return;
    if (!this.accepting) {
      socket.close(streamCloseCodes.reconnect, 'the server is restarting: reconnect with your cursor');
      return;
    }
    const from = cursor ?? start.seq;
    const limits = { maxBufferedBytes: config.stream.maxBufferedBytes, maxPending: config.stream.maxReplayEntries };
    const connection = new StreamConnection(socket, person.id, person.team_id, sessionHash, { ...start, from }, limits, (closed) => this.detach(closed));
    this.attach(socket, connection, start.seq);
    connection.sendControl({ type: 'hello', cursor: String(from), userId: person.id });
    const refusal = await this.resumeRefusal(person.team_id, from, start.seq);
    if (refusal) {
      connection.resync(refusal);
      return;
    }
    await this.replay(connection, from);
    connection.goLive();
    const online = await this.presence.online(person.team_id);
    // The person is online by this very stream, whether or not its batch has been held yet.
    if (online && !connection.isClosed) connection.sendLive(presenceSnapshot(online.includes(person.id) ? online : [...online, person.id]));
  }

  /** Registers the connection with its team's feed before the replay reads, so nothing falls between the two. */
  private attach(socket: WebSocket, connection: StreamConnection, startSeq: number): void {
    this.connections.add(connection);
    let feed = this.feeds.get(connection.teamId);
    if (!feed) {
      feed = new TeamFeed(connection.teamId, startSeq, this.ctx);
      this.feeds.set(connection.teamId, feed);
    }
    feed.connections.add(connection);
    socket.on('pong', () => (connection.alive = true));
  }

  private detach(connection: StreamConnection): void {
    this.connections.delete(connection);
    const feed = this.feeds.get(connection.teamId);
    if (!feed) return;
    feed.connections.delete(connection);
    if (feed.connections.size > 0) return;
    this.feeds.delete(connection.teamId);
    void feed.stop();
  }

  /**
   * Why a client cannot resume from `from`: a cursor the team never reached, entries after it pruned, or
   * more of them than a replay carries. Positions are not consecutive on PostgreSQL: entries are counted.
   */
  private async resumeRefusal(teamId: string, from: number, current: number): Promise<ResyncReason | undefined> {
    if (from === current) return undefined;
    if (from > current) return 'unknownCursor';
    const { maxReplayEntries } = this.ctx.config.stream;
    const { pruned, behind } = await resumeFacts(this.ctx.db, teamId, from, current, maxReplayEntries);
    return from < pruned || behind > maxReplayEntries ? 'tooFarBehind' : undefined;
  }

  /**
   * Replays the team's entries after `from` from the store, up to the newest, at the client's pace: past
   * half the buffer bound it waits until the socket has taken what was sent.
   */
  private async replay(connection: StreamConnection, from: number): Promise<void> {
    const { db, config } = this.ctx;
    let position = from;
    let replayed = 0;
    for (;;) {
      const page = await readStreamEntries(db, connection.teamId, position, STREAM_PAGE);
      for (const stored of page) {
        connection.replay(toStreamEntry(stored));
        if (connection.bufferedAmount > config.stream.maxBufferedBytes / 2) await connection.flushed();
        if (connection.isClosed) return;
      }
      replayed += page.length;
      if (page.length < STREAM_PAGE) return;
      if (replayed > config.stream.maxReplayEntries) {
        connection.resync('tooFarBehind');
        return;
      }
      position = page[page.length - 1].seq;
    }
  }

  private heartbeat(): void {
    for (const connection of this.connections) connection.heartbeat();
  }

  /** Asks the store where each team with connections here is, and reads what no notice announced. */
  private async catchUp(): Promise<void> {
    if (this.feeds.size === 0) return;
    const positions = await teamStreamPositions(this.ctx.db, [...this.feeds.keys()]);
    for (const [teamId, seq] of positions) this.feeds.get(teamId)?.heard(seq);
  }

  /**
   * A person's sessions ended somewhere (signed out, deactivated: a notice from any process): their streams
   * here are checked now, not at the next sweep.
   */
  private credentialsEnded(payload: string): void {
    const notice = parseCredentialsNotice(payload);
    if (!notice || !('userId' in notice)) return;
    const theirs = [...this.connections].filter((connection) => connection.userId === notice.userId);
    if (theirs.length === 0) return;
    this.checkSessions(theirs).catch((error: unknown) => this.ctx.log.error({ err: error }, 'could not check the streams of a person whose sessions ended'));
  }

  /** Closes the streams whose session was signed out or expired, or whose person was deactivated. */
  private async checkSessions(connections?: StreamConnection[]): Promise<void> {
    if (this.connections.size === 0) return;
    // Only the streams asked about: one opened while the store answered is not in the answer.
    const checked = connections ?? [...this.connections];
    const live = await liveCredentialHashes(this.ctx.db, [...new Set(checked.map((connection) => connection.sessionHash))], this.ctx.now());
    for (const connection of checked) {
      if (!live.has(connection.sessionHash)) connection.close(streamCloseCodes.signedOut, 'signed out: sign in again');
    }
  }

  private async prune(): Promise<void> {
    await pruneStream(this.ctx.db, { now: this.ctx.now(), retentionMs: this.ctx.config.stream.retentionMs });
  }

  private every(ms: number, task: () => void | Promise<void>): void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      Promise.resolve()
        .then(task)
        .catch((error: unknown) => this.ctx.log.error({ err: error }, 'stream upkeep failed'))
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /**
   * Graceful shutdown: no new streams; every open one is told to reconnect elsewhere and closed (1012);
   * sockets that have not closed by the grace period are cut. Resolves before the store may close.
   */
  async close(): Promise<void> {
    this.accepting = false;
    this.stopHearingCredentials();
    for (const timer of this.timers) clearInterval(timer);
    for (const timer of this.sheddings) clearTimeout(timer);
    this.presence.stop();
    const closing = [...this.sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const connection of this.connections) connection.reconnect();
    const grace = setTimeout(() => {
      for (const socket of this.sockets) socket.terminate();
    }, Math.min(this.ctx.config.shutdownGraceMs, 5000));
    await Promise.all(closing);
    // A stream still starting sees that the gateway no longer accepts, and closes itself.
    await Promise.allSettled([...this.openings]);
    clearTimeout(grace);
    await Promise.all([...this.feeds.values()].map((feed) => feed.stop()));
    this.feeds.clear();
  }
}
