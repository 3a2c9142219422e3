import type { EventsContext } from '../context.js';
import type { EventsTable } from '../../store/schema.js';
import { claimEventsById, findDueEvents, releaseClaims } from '../outbox/claim.js';
import { attemptClaimedEvent, type FinishedAttempt } from './attemptDelivery.js';
import type { AppForDelivery } from './deliveryHealth.js';
import { CallCanceller } from './listenerCall.js';
import { AttemptRecorder } from './recorder.js';
import { paddedList } from '../outbox/sqlLists.js';

/** One app's lane: its attempts in flight, how many it may have, and its next due events read ahead. */
interface Lane {
  appId: string;
  inFlight: number;
  /** Between `laneConcurrency` and `laneMaxConcurrency`: wider while the listener answers fast. */
  limit: number;
  /** Ids of due events read ahead, oldest first, not yet claimed. */
  queue: string[];
  /** The outbox may hold more due events of this app than `queue`. */
  mayHaveMore: boolean;
  lastActiveAt: number;
}

/** At most this many due events are read ahead in one look, all apps together. */
const readAheadLimit = 50_000;
/** Apps left out of one look because their next events are already known, at most. */
const maxSkippedApps = 5_000;
/** A lane idle this long is forgotten (and starts narrow again). */
const idleLaneMs = 60_000;

/**
 * Delivers the outbox. Each app has a lane of `laneConcurrency` slots, widened up to
 * `laneMaxConcurrency` while its listener answers fast, and the process has `globalConcurrency` slots
 * in all: an app whose listener hangs fills only its own (narrow) lane, and other apps' events keep
 * flowing. The worker looks at the outbox when woken (after each commit that enqueued events, and by a
 * poll timer for retries and for events other processes enqueued), reads each app's next due events
 * ahead, then claims them as its lanes free up, a statement per batch rather than a scan per event.
 * Finished attempts are recorded in batches (`AttemptRecorder`).
 */
export class DeliveryWorker {
  private readonly lanes = new Map<string, Lane>();
  private inFlight = 0;
  private readonly deliveries = new Set<Promise<void>>();
  private readonly shutdown = new CallCanceller();
  private readonly recorder: AttemptRecorder;
  private filling: Promise<void> | undefined;
  private scheduled = false;
  private tick: NodeJS.Timeout | undefined;
  private wanted = false;
  /** Look at the outbox again before claiming: something may have become due that no lane knows of. */
  private outboxChanged = true;
  /** The last look stopped at `readAheadLimit`. */
  private lookTruncated = false;
  private rotation = 0;
  /** performance.now() when the last look started, and how long it took. */
  private lastLookAt = Number.NEGATIVE_INFINITY;
  private lastLookMs = 0;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly ctx: EventsContext) {
    this.recorder = new AttemptRecorder(ctx, (appIds) => {
      // Their remaining events wait for a resume; the claim would refuse them anyway.
      for (const appId of appIds) this.forgetQueue(appId);
    });
  }

  start(): void {
    const { pollIntervalMs } = this.ctx.events.settings;
    this.poll = setInterval(() => {
      this.pruneIdleLanes();
      // A look since the last poll found whatever was due then; and while the outbox is long (a look
      // takes long) polls space out, so that looking costs at most a few per cent of the time.
      if (performance.now() - this.lastLookAt >= Math.max(pollIntervalMs / 2, 30 * this.lastLookMs)) this.wake();
    }, pollIntervalMs);
    this.wake();
  }

  /** Looks for due events now; cheap to call often, as calls during a look coalesce into one more look. */
  wake(): void {
    this.outboxChanged = true;
    this.schedule();
  }

  /**
   * Resolves once the worker has looked at the outbox after this call and has nothing left to do for
   * now: no look, claim or attempt under way, every finished attempt recorded. What it would send at the
   * current `now()` has been sent; a test waits on this to show that nothing (more) goes out.
   */
  async idle(): Promise<void> {
    const idle = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.wake();
    await idle;
    await this.recorder.flush();
  }

  /** Stops claiming and abandons attempts in flight (their claims are given back, nothing is recorded); records finished ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.tick);
    this.shutdown.cancelAll();
    await this.filling;
    await Promise.all(this.deliveries);
    await this.recorder.flush();
    this.notifyIdle();
  }

  /**
   * Fills free slots as soon as the caller's synchronous work is done (a microtask, not a later turn of
   * the event loop: a woken worker should not wait behind other I/O), or as soon as the fill under way
   * ends. Calls in the meantime coalesce.
   */
  private schedule(): void {
    if (this.stopped) return;
    this.wanted = true;
    if (this.filling || this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.fillNow();
    });
  }

  private fillNow(): void {
    if (this.stopped) return;
    this.wanted = true;
    if (this.filling) return;
    this.filling = this.fillWhileWanted().finally(() => {
      this.filling = undefined;
      if (this.wanted) this.schedule();
      // Every attempt's end leads here through `tickSoon`, so this is where the worker falls idle.
      else if (this.deliveries.size === 0 && !this.tick) this.notifyIdle();
    });
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * After attempts finish: within `recordBatchDelayMs`, records them all and refills their slots, in
   * the same turn, so that the records and the next claim are one round of writes rather than one per
   * attempt. (A wake for new events does not wait for this: it fills at once.)
   */
  private tickSoon(): void {
    if (this.stopped || this.tick) return;
    this.tick = setTimeout(() => {
      this.tick = undefined;
      void this.recorder.flush();
      this.fillNow();
    }, this.ctx.events.settings.recordBatchDelayMs);
  }

  private async fillWhileWanted(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      try {
        await this.fillFreeSlots();
      } catch (error) {
        // The store may be briefly unreachable; the next poll tries again.
        this.outboxChanged = true;
        this.ctx.log.error({ err: error }, 'event delivery: claiming due events failed');
      }
    }
  }

  private async fillFreeSlots(): Promise<void> {
    const { globalConcurrency, leaseMs } = this.ctx.events.settings;
    const free = globalConcurrency - this.inFlight;
    if (free <= 0) return;
    if (this.needsLook()) await this.look();

    const picked = this.pick(free);
    if (picked.length === 0) return;
    // The apps are read beside the claim (a read does not wait for the claim's write).
    const [claimed, apps] = await Promise.all([
      claimEventsById(this.ctx.store, { ids: picked.map((event) => event.id), now: this.ctx.now(), leaseMs }),
      this.appsOf(picked),
    ]);
    if (claimed.length === 0) {
      this.wanted = true;
      return;
    }
    if (this.stopped) {
      await releaseClaims(this.ctx.store, claimed);
      return;
    }
    for (const event of claimed) {
      const app = apps.get(event.app_id);
      if (app) this.startDelivery(event, app);
      else this.ctx.log.error({ eventId: event.id, appId: event.app_id }, 'event delivery: the event’s app is gone');
    }
    // Events taken meanwhile by another worker left room; or more lanes have room and known events.
    this.wanted = true;
  }

  private needsLook(): boolean {
    if (this.outboxChanged || this.lookTruncated) return true;
    for (const lane of this.lanes.values()) {
      if (lane.queue.length === 0 && lane.mayHaveMore && lane.inFlight < lane.limit) return true;
    }
    return false;
  }

  /**
   * Reads ahead the due events of every app whose next events are not known yet; apps with events
   * still queued are left out (their rows are only filtered, not ranked) and looked at again once their
   * queue is empty.
   */
  private async look(): Promise<void> {
    this.outboxChanged = false;
    this.lastLookAt = performance.now();
    const { readAheadPerApp } = this.ctx.events.settings;
    const skipped: Lane[] = [];
    for (const lane of this.lanes.values()) {
      if (lane.queue.length > 0 && skipped.length < maxSkippedApps) skipped.push(lane);
    }
    const due = await findDueEvents(this.ctx.store, {
      now: this.ctx.now(),
      limit: readAheadLimit,
      perAppLimit: readAheadPerApp,
      skipAppIds: skipped.map((lane) => lane.appId),
    });
    this.lastLookMs = performance.now() - this.lastLookAt;
    this.lookTruncated = due.length === readAheadLimit;
    const skippedIds = new Set(skipped.map((lane) => lane.appId));
    // Whatever the look covered is now known exactly; a skipped app may have had events since.
    for (const lane of this.lanes.values()) {
      if (skippedIds.has(lane.appId)) {
        lane.mayHaveMore = true;
      } else {
        lane.queue = [];
        lane.mayHaveMore = false;
      }
    }
    for (const event of due) this.lane(event.app_id).queue.push(event.id);
    for (const lane of this.lanes.values()) {
      if (!skippedIds.has(lane.appId) && lane.queue.length >= readAheadPerApp) lane.mayHaveMore = true;
    }
  }

  /** Due events for the lanes with room, `free` at most, taking turns among the apps. */
  private pick(free: number): Array<{ id: string; app_id: string }> {
    const lanes = [...this.lanes.values()].filter((lane) => lane.queue.length > 0 && lane.inFlight < lane.limit);
    const picked: Array<{ id: string; app_id: string }> = [];
    if (lanes.length === 0) return picked;
    const start = this.rotation++ % lanes.length;
    for (let i = 0; i < lanes.length && picked.length < free; i++) {
      const lane = lanes[(start + i) % lanes.length];
      const take = Math.min(lane.limit - lane.inFlight, free - picked.length);
      for (const id of lane.queue.splice(0, take)) picked.push({ id, app_id: lane.appId });
    }
    return picked;
  }

  private async appsOf(events: Array<{ app_id: string }>): Promise<Map<string, AppForDelivery>> {
    const ids = [...new Set(events.map((event) => event.app_id))];
    const rows = await this.ctx.db
      .selectFrom('apps')
      .select(['id', 'name', 'team_id', 'developer_id', 'secret', 'listener_url', 'delivery_failing_since'])
      .where('id', 'in', paddedList(ids))
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  private lane(appId: string): Lane {
    let lane = this.lanes.get(appId);
    if (!lane) {
      lane = { appId, inFlight: 0, limit: this.ctx.events.settings.laneConcurrency, queue: [], mayHaveMore: false, lastActiveAt: Date.now() };
      this.lanes.set(appId, lane);
    }
    return lane;
  }

  private forgetQueue(appId: string): void {
    const lane = this.lanes.get(appId);
    if (lane) {
      lane.queue = [];
      lane.mayHaveMore = false;
    }
  }

  private pruneIdleLanes(): void {
    const now = Date.now();
    for (const [appId, lane] of this.lanes) {
      if (lane.inFlight === 0 && lane.queue.length === 0 && !lane.mayHaveMore && now - lane.lastActiveAt > idleLaneMs) this.lanes.delete(appId);
    }
  }

  private startDelivery(event: EventsTable, app: AppForDelivery): void {
    const lane = this.lane(event.app_id);
    lane.inFlight++;
    this.inFlight++;
    const delivery = attemptClaimedEvent(this.ctx, event, app, this.shutdown)
      .then(async (attempt) => {
        if (!attempt) {
          await releaseClaims(this.ctx.store, [event]);
          return;
        }
        this.adjustLane(lane, attempt);
        this.recorder.add(attempt);
      })
      .catch((error: unknown) => {
        // Unrecorded: the claim's lease runs out and the event is attempted again.
        this.ctx.log.error({ err: error, eventId: event.id }, 'event delivery: an attempt failed unexpectedly');
      })
      .finally(() => {
        lane.inFlight--;
        this.inFlight--;
        lane.lastActiveAt = Date.now();
        this.deliveries.delete(delivery);
        this.tickSoon();
      });
    this.deliveries.add(delivery);
  }

  /**
   * Widens a busy lane by one slot after each fast 2xx while the app has events waiting (so a lane that
   * keeps up doubles about every round trip, up to `laneMaxConcurrency`); halves it (to no less than
   * `laneConcurrency`) after a failure worth retrying or a slow answer. A listener that hangs never
   * answers, so its lane never widens.
   */
  private adjustLane(lane: Lane, attempt: FinishedAttempt): void {
    const { laneConcurrency, laneMaxConcurrency, laneWidenBelowMs } = this.ctx.events.settings;
    const { result, verdict } = attempt;
    const fast = result.durationMs < laneWidenBelowMs;
    if (verdict.outcome === 'delivered' && fast) {
      const busy = lane.inFlight * 2 >= lane.limit;
      if (busy && (lane.queue.length > 0 || lane.mayHaveMore)) lane.limit = Math.min(lane.limit + 1, laneMaxConcurrency);
    } else if (verdict.outcome === 'retry' || !fast) {
      lane.limit = Math.max(Math.floor(lane.limit / 2), laneConcurrency);
    }
  }
}

/** Starts delivering with the server; `stop()` before the store closes. */
export function startDeliveryWorker(ctx: EventsContext): DeliveryWorker {
  const worker = new DeliveryWorker(ctx);
  ctx.events.attachWorker(worker);
  worker.start();
  return worker;
}
