import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/bus.js';
import { readStreamEntries, type StoredStreamEntry } from '../../core/queries/stream.js';
import type { CommittedEntries } from '../../core/stream/committedEntries.js';
import { liveTopic, parseLiveNotice } from '../../core/stream/live.js';
import { streamTopic } from '../../core/stream/record.js';
import type { Db } from '../../store/store.js';
import type { StreamConnection } from './streamConnection.js';
import { handOutLive } from './liveFrames.js';
import { toStreamEntry } from './streamEntry.js';

/** Entries read per query, by the feed and by a replay. */
export const STREAM_PAGE = 500;

/** The longest pause between looks for an announced entry that may not be read yet (PostgreSQL). */
const PENDING_RETRY_MAX_MS = 250;
/** Looks at that pause before leaving the entry to the gateway's catch-up. */
const PENDING_RETRIES_AT_MAX = 40;

/**
 * One team's stream in this process: it hears the team's notices on the bus and reads each new entry
 * from the store once, whatever the number of the team's connections here, then hands it to all of
 * them (each decides with `mayReceive`); it also hands them the team's live notices (typing, presence),
 * which are not kept. A notice of a new entry only says "there is something after N": the feed
 * reads everything after what it read last, so a lost or late notice delays entries, never loses them.
 * On PostgreSQL an announced entry may not be readable yet (a transaction older than its own is still
 * in flight, store/rows/streamEntries.ts): the feed looks again soon, then less and less often.
 */
export class TeamFeed {
  readonly connections = new Set<StreamConnection>();
  private readonly unsubscribe: Array<() => void>;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  /** The newest position a notice announced. */
  private announced = 0;
  private retry: NodeJS.Timeout | undefined;
  private retryDelay = 0;
  private retriesAtMax = 0;
  private stopped = false;

  constructor(
    readonly teamId: string,
    /** The last position read: entries after it are new. */
    private lastRead: number,
    private readonly deps: { db: Db; bus: Bus; log: Pick<FastifyBaseLogger, 'error'>; committedEntries?: CommittedEntries },
  ) {
    this.unsubscribe = [
      deps.bus.subscribe(streamTopic(teamId), (payload) => this.heard(Number(payload))),
      // Typing and presence: handed to the streams here as they come, never read from the store.
      deps.bus.subscribe(liveTopic(teamId), (payload) => {
        const notice = parseLiveNotice(payload);
        if (notice) handOutLive(notice, this.connections);
      }),
    ];
  }

  /** A notice, from the bus or from the catch-up: position `seq` exists. */
  heard(seq: number): void {
    if (!Number.isSafeInteger(seq) || seq <= this.lastRead) return;
    this.announced = Math.max(this.announced, seq);
    void this.pull();
  }

  /** Reads until nothing new is left; a notice that comes meanwhile makes it look once more. */
  pull(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.readAgain = false;
          await this.readNew();
        } while (this.readAgain);
        this.lookAgainIfPending();
      } catch (error) {
        // The store is unreachable: the next notice or catch-up tries again from the same position.
        this.deps.log.error({ err: error, teamId: this.teamId }, 'the stream could not read new entries');
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  private async readNew(): Promise<void> {
    // What this process just committed, if it is all that is new: handed out without reading it back.
    const committed = this.deps.committedEntries?.between(this.teamId, this.lastRead, this.announced);
    if (committed) return this.handOut(committed);
    for (;;) {
      const page = await readStreamEntries(this.deps.db, this.teamId, this.lastRead, STREAM_PAGE);
      this.handOut(page);
      if (page.length < STREAM_PAGE || this.connections.size === 0) return;
    }
  }

  private handOut(stored: readonly StoredStreamEntry[]): void {
    for (const one of stored) {
      const entry = toStreamEntry(one);
      this.lastRead = entry.seq;
      for (const connection of this.connections) connection.hand(entry);
    }
  }

  /** An announced entry was not readable yet: look again after a pause that doubles, up to a bound. */
  private lookAgainIfPending(): void {
    if (this.stopped || this.retry || this.lastRead >= this.announced || this.connections.size === 0) {
      if (this.lastRead >= this.announced) this.retryDelay = this.retriesAtMax = 0;
      return;
    }
    if (this.retryDelay >= PENDING_RETRY_MAX_MS && ++this.retriesAtMax > PENDING_RETRIES_AT_MAX) {
      // Left to the catch-up: a transaction has been in flight for long, or the notice was wrong.
      this.announced = this.lastRead;
      this.retryDelay = this.retriesAtMax = 0;
      return;
    }
    this.retryDelay = Math.min(Math.max(1, this.retryDelay * 2), PENDING_RETRY_MAX_MS);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.pull();
    }, this.retryDelay);
    this.retry.unref();
  }

  /** Stops hearing the team; resolves when a read under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    await this.reading;
  }
}
