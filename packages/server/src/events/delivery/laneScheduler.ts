import type { DeliverySettings } from './settings.js';
import type { Verdict } from './verdict.js';

/** One app's lane: its attempts in flight, how many it may have, and its next due events read ahead. */
export interface Lane {
  appId: string;
  inFlight: number;
  /** Between `laneConcurrency` and `laneMaxConcurrency`: wider while the listener answers fast. */
  limit: number;
  /** Ids of due events read ahead, oldest first, not yet claimed. */
  queue: string[];
  /** The outbox may hold more due events of this app than `queue`. */
  mayHaveMore: boolean;
  /** The clock time (ms) of the lane's last finished attempt, or of its making. */
  lastActiveAt: number;
}

/** A due event as a look at the outbox finds it, and as `pick` hands it out. */
export interface LaneEvent {
  id: string;
  app_id: string;
}

/** What a finished attempt tells the lane about its listener. */
export interface AttemptOutcome {
  outcome: Verdict['outcome'];
  durationMs: number;
}

export type LaneSettings = Pick<DeliverySettings, 'laneConcurrency' | 'laneMaxConcurrency' | 'laneWidenBelowMs' | 'readAheadPerApp'>;

/**
 * Decides which due events go out next: one lane per app, each with its own width, taking turns among the
 * apps. It does no I/O and reads no clock: the delivery worker looks at the outbox, claims, attempts and
 * records, and tells the scheduler what it found and what finished (with the time, where it matters).
 */
export class LaneScheduler {
  private readonly lanes = new Map<string, Lane>();
  private rotation = 0;

  constructor(private readonly settings: LaneSettings) {}

  /** Some lane has room and has run out of known events while the outbox may hold more of them. */
  wantsLook(): boolean {
    for (const lane of this.lanes.values()) {
      if (lane.queue.length === 0 && lane.mayHaveMore && lane.inFlight < lane.limit) return true;
    }
    return false;
  }

  /**
   * The apps a look may leave out, `max` at most: their next events are still queued, so their rows need
   * only be filtered out, not ranked. They are looked at again once their queue is empty.
   */
  appsToSkip(max: number): string[] {
    const skipped: string[] = [];
    for (const lane of this.lanes.values()) {
      if (lane.queue.length > 0 && skipped.length < max) skipped.push(lane.appId);
    }
    return skipped;
  }

  /** Takes in what a look found: `due` (oldest first per app), read with `skipped` left out. */
  learn(due: readonly LaneEvent[], skipped: readonly string[], now: number): void {
    const { readAheadPerApp } = this.settings;
    const skippedIds = new Set(skipped);
    // Whatever the look covered is now known exactly; a skipped app may have had events since.
    for (const lane of this.lanes.values()) {
      if (skippedIds.has(lane.appId)) {
        lane.mayHaveMore = true;
      } else {
        lane.queue = [];
        lane.mayHaveMore = false;
      }
    }
    for (const event of due) this.lane(event.app_id, now).queue.push(event.id);
    for (const lane of this.lanes.values()) {
      if (!skippedIds.has(lane.appId) && lane.queue.length >= readAheadPerApp) lane.mayHaveMore = true;
    }
  }

  /**
   * Due events for the lanes with room, `free` at most, taken off their queues: each lane in turn takes
   * what it has room for, starting from the next lane each time, so no app always goes first.
   */
  pick(free: number): LaneEvent[] {
    const lanes = [...this.lanes.values()].filter((lane) => lane.queue.length > 0 && lane.inFlight < lane.limit);
    const picked: LaneEvent[] = [];
    if (lanes.length === 0) return picked;
    const start = this.rotation++ % lanes.length;
    for (let i = 0; i < lanes.length && picked.length < free; i++) {
      const lane = lanes[(start + i) % lanes.length];
      const take = Math.min(lane.limit - lane.inFlight, free - picked.length);
      for (const id of lane.queue.splice(0, take)) picked.push({ id, app_id: lane.appId });
    }
    return picked;
  }

  /** An attempt of the app's starts: it holds one of the lane's slots until `finished`. */
  started(appId: string, now: number): Lane {
    const lane = this.lane(appId, now);
    lane.inFlight++;
    return lane;
  }

  /**
   * Widens a busy lane by one slot after each fast 2xx while the app has events waiting (so a lane that
   * keeps up doubles about every round trip, up to `laneMaxConcurrency`); halves it (to no less than
   * `laneConcurrency`) after a failure worth retrying or a slow answer. A listener that hangs never
   * answers, so its lane never widens. Called before `finished`, while the attempt still holds its slot.
   */
  adjust(lane: Lane, attempt: AttemptOutcome): void {
    const { laneConcurrency, laneMaxConcurrency, laneWidenBelowMs } = this.settings;
    const fast = attempt.durationMs < laneWidenBelowMs;
    if (attempt.outcome === 'delivered' && fast) {
      const busy = lane.inFlight * 2 >= lane.limit;
      if (busy && (lane.queue.length > 0 || lane.mayHaveMore)) lane.limit = Math.min(lane.limit + 1, laneMaxConcurrency);
    } else if (attempt.outcome === 'retry' || !fast) {
      lane.limit = Math.max(Math.floor(lane.limit / 2), laneConcurrency);
    }
  }

  /** The attempt's slot is free again, whatever became of the attempt. */
  finished(lane: Lane, now: number): void {
    lane.inFlight--;
    lane.lastActiveAt = now;
  }

  /** The app's known events wait (its delivery was paused): none of them is picked until a look finds them again. */
  forget(appId: string): void {
    const lane = this.lanes.get(appId);
    if (lane) {
      lane.queue = [];
      lane.mayHaveMore = false;
    }
  }

  /** Forgets lanes with nothing to do since `idleMs` before `now`; a lane made again starts narrow. */
  pruneIdle(now: number, idleMs: number): void {
    for (const [appId, lane] of this.lanes) {
      if (lane.inFlight === 0 && lane.queue.length === 0 && !lane.mayHaveMore && now - lane.lastActiveAt > idleMs) this.lanes.delete(appId);
    }
  }

  private lane(appId: string, now: number): Lane {
    let lane = this.lanes.get(appId);
    if (!lane) {
      lane = { appId, inFlight: 0, limit: this.settings.laneConcurrency, queue: [], mayHaveMore: false, lastActiveAt: now };
      this.lanes.set(appId, lane);
    }
    return lane;
  }
}
