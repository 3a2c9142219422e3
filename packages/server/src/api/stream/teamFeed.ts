import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/bus.js';
import { readStreamEntries } from '../../core/queries/stream.js';
import { liveTopic, parseLiveNotice } from '../../core/stream/live.js';
import { streamTopic } from '../../core/stream/record.js';
import type { Db } from '../../store/store.js';
import type { StreamConnection } from './streamConnection.js';
import { handOutLive } from './liveFrames.js';
import { toStreamEntry } from './streamEntry.js';

/** Entries read per query, by the feed and by a replay. */
export const STREAM_PAGE = 500;

/**
 * One team's stream in this process: it hears the team's notices on the bus and reads each new entry
 * from the store once, whatever the number of the team's connections here, then hands it to all of
 * them (each decides with `mayReceive`); it also hands them the team's live notices (typing, presence),
 * which are not kept. A notice of a new entry only says "there is something after N": the feed
 * reads everything after what it read last, so a lost or late notice delays entries, never loses them.
 */
export class TeamFeed {
  readonly connections = new Set<StreamConnection>();
  private readonly unsubscribe: Array<() => void>;
  private reading: Promise<void> | undefined;
  private readAgain = false;

  constructor(
    readonly teamId: string,
    /** The last position read: entries after it are new. */
    private lastRead: number,
    private readonly deps: { db: Db; bus: Bus; log: Pick<FastifyBaseLogger, 'error'> },
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
    if (Number.isSafeInteger(seq) && seq > this.lastRead) void this.pull();
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
    for (;;) {
      const page = await readStreamEntries(this.deps.db, this.teamId, this.lastRead, STREAM_PAGE);
      for (const stored of page) {
        const entry = toStreamEntry(stored);
        this.lastRead = entry.seq;
        for (const connection of this.connections) connection.hand(entry);
      }
      if (page.length < STREAM_PAGE || this.connections.size === 0) return;
    }
  }

  /** Stops hearing the team; resolves when a read under way has finished. */
  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    await this.reading;
  }
}
