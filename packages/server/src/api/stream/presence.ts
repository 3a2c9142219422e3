import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../bus/bus.js';
import type { PresenceStore } from '../../bus/presenceStore.js';
import { publishLive } from '../../core/stream/live.js';

/** How often a process renews its holds and looks for people whose hold lapsed. */
export const PRESENCE_RENEW_MS = 15_000;
/** A hold lasts three renewals: a person is away 30–45 s after their last stream closed (a reload is not). */
export const PRESENCE_LEASE_MS = 3 * PRESENCE_RENEW_MS;
/**
 * People whose first stream opened here are held together, this long after the first of them: when many
 * connect at once (a restart), the team hears one frame a second, not one per person, each going to
 * every stream of the team.
 */
export const PRESENCE_BATCH_MS = 1_000;
/** A new stream is told who is online only up to this many people: past it the list costs more than it helps. */
export const PRESENCE_SNAPSHOT_MAX = 1_000;

export interface PresenceDeps {
  store: PresenceStore;
  bus: Bus;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/**
 * Presence from open streams: a person is online while they have a stream open on any process, and away
 * once the last has been closed for a lease (or its process died). Each process counts the streams open
 * on it, holds their people in the shared store and renews the holds; whoever's hold made a person
 * online announces it, and whoever lets go of a lapsed hold announces that they went away, both as live
 * notices on the bus. Nothing is stored for good, and a store that fails only delays the news.
 */
export class Presence {
  /** Open streams per person, per team, in this process. */
  private readonly local = new Map<string, Map<string, number>>();
  private failing = false;
  /** People to hold, per team, at the next batch. */
  private readonly arriving = new Map<string, Set<string>>();
  private batch: NodeJS.Timeout | undefined;
  private holding: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PresenceDeps) {}

  /** A stream of the person opened here. */
  opened(teamId: string, userId: string): void {
    let people = this.local.get(teamId);
    if (!people) this.local.set(teamId, (people = new Map()));
    const open = (people.get(userId) ?? 0) + 1;
    people.set(userId, open);
    if (open > 1) return;
    let arriving = this.arriving.get(teamId);
    if (!arriving) this.arriving.set(teamId, (arriving = new Set()));
    arriving.add(userId);
    this.batch ??= setTimeout(() => void this.holdArrivals(), PRESENCE_BATCH_MS).unref();
  }

  /** Holds the people who arrived since the last batch (by the timer, and by tests and shutdown at once). */
  holdArrivals(): Promise<void> {
    clearTimeout(this.batch);
    this.batch = undefined;
    const arrived = [...this.arriving];
    this.arriving.clear();
    this.holding = this.holding.then(async () => {
      for (const [teamId, userIds] of arrived) await this.hold(teamId, [...userIds]);
    });
    return this.holding;
  }

  /** A stream of the person closed here; when it was the last anywhere, the hold lapses and they go away. */
  closed(teamId: string, userId: string): void {
    const people = this.local.get(teamId);
    const open = (people?.get(userId) ?? 0) - 1;
    if (open > 0) people!.set(userId, open);
    else people?.delete(userId);
    if (people?.size === 0) this.local.delete(teamId);
  }

  /** Renews the holds of this process and lets go of the lapsed ones of its teams (every PRESENCE_RENEW_MS). */
  async renew(): Promise<void> {
    await this.holdArrivals();
    for (const [teamId, people] of [...this.local]) {
      await this.hold(teamId, [...people.keys()]);
      const gone = await this.attempt(() => this.deps.store.expire(teamId, this.deps.now()));
      if (gone?.length) publishLive(this.deps.bus, teamId, { kind: 'presence', status: 'away', userIds: gone });
    }
  }

  /** Who of the team is online now, for a new stream: undefined while the store does not answer, or past PRESENCE_SNAPSHOT_MAX. */
  async online(teamId: string): Promise<string[] | undefined> {
    const online = await this.attempt(() => this.deps.store.online(teamId, this.deps.now()));
    return online && online.length <= PRESENCE_SNAPSHOT_MAX ? online : undefined;
  }

  /** Stops the batch timer (the gateway's shutdown); holds lapse on their own. */
  stop(): void {
    clearTimeout(this.batch);
    this.batch = undefined;
    this.arriving.clear();
  }

  private async hold(teamId: string, userIds: string[]): Promise<void> {
    const now = this.deps.now();
    const fresh = await this.attempt(() => this.deps.store.hold(teamId, userIds, now + PRESENCE_LEASE_MS, now));
    if (fresh?.length) publishLive(this.deps.bus, teamId, { kind: 'presence', status: 'online', userIds: fresh });
  }

  /** Logged when the store starts and stops failing, not at every renewal. */
  private async attempt<T>(task: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await task();
      if (this.failing) this.deps.log.info('presence is kept again');
      this.failing = false;
      return result;
    } catch (error) {
      if (!this.failing) this.deps.log.warn({ err: error }, 'presence could not be kept (Redis did not answer); people show as before until it does');
      this.failing = true;
      return undefined;
    }
  }
}
