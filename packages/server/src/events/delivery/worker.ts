import type { EventsContext } from '../context.js';
import type { EventsTable } from '../../store/schema.js';
import { claimEventsById, findDueEvents, releaseClaims } from '../outbox/claim.js';
import { claimProbe, findAppsToProbe } from '../outbox/probe.js';
import { attemptClaimedEvent } from './attemptDelivery.js';
import type { AppForDelivery } from './deliveryHealth.js';
import { CallCanceller } from './listenerCall.js';
import { UnreachableListenerWatch } from './listenerProbe.js';
import { LaneScheduler } from './laneScheduler.js';
import { AttemptRecorder } from './recorder.js';
import { catchUpAfterRestart } from './restart.js';
import { paddedList } from '../outbox/sqlLists.js';

/** At most this many due events are read ahead in one look, all apps together. */
const readAheadLimit = 50_000;
/** Apps left out of one look because their next events are already known, at most. */
const maxSkippedApps = 5_000;
/** A lane idle this long is forgotten (and starts narrow again). */
const idleLaneMs = 60_000;
/** Listener probes found in one look at most. */
const maxProbesPerLook = 1_000;

/**
 * Delivers the outbox. Each app has a lane of `laneConcurrency` slots, widened up to
 * `laneMaxConcurrency` while its listener answers fast, and the process has `globalConcurrency` slots
 * in all: an app whose listener hangs fills only its own (narrow) lane, and other apps' events keep
 * flowing. The worker looks at the outbox when woken (after each commit that enqueued events, and by a
 * poll timer for retries and for events other processes enqueued), reads each app's next due events
 * ahead, then claims them as its lanes free up, a statement per batch rather than a scan per event.
 * Which known events go out next is the `LaneScheduler`'s decision; the worker does the I/O around it.
 * Finished attempts are recorded in batches (`AttemptRecorder`). A failing listener backs off as a
 * whole (listenerBackoff.ts): each look also finds the listeners due a probe, which goes in the app's
 * lane like any event. On start, nothing waits for the schedule of the server before (restart.ts).
 */
export class DeliveryWorker {
  private readonly lanes: LaneScheduler;
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
  /** performance.now() when the last look started, and how long it took. */
  private lastLookAt = Number.NEGATIVE_INFINITY;
  private lastLookMs = 0;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];
  /** Apps whose listener probe was due at the last look, not yet claimed. */
  private probesDue: string[] = [];
  private readonly unreachable: UnreachableListenerWatch;

  constructor(private readonly ctx: EventsContext) {
    this.lanes = new LaneScheduler(ctx.events.settings);
    this.recorder = new AttemptRecorder(ctx, ({ attempts, pausedAppIds, releasedAppIds }) => {
      for (const { attempt } of attempts) ctx.events.deliveryChanged(attempt.event.app_id, [attempt.event.id]);
      for (const appId of pausedAppIds) ctx.events.deliveryChanged(appId);
      // Their remaining events wait for a resume; the claim would refuse them anyway.
      for (const appId of pausedAppIds) this.lanes.forget(appId);
      // Their held events are due now.
      if (releasedAppIds.size > 0) this.wake();
    });
    this.unreachable = new UnreachableListenerWatch(ctx, () => this.wake());
  }

  start(): void {
    const { pollIntervalMs } = this.ctx.events.settings;
    // The first fill waits for the catch-up (wakes meanwhile coalesce into the fill after it).
    this.filling = this.catchUpAfterRestart().finally(() => {
      this.filling = undefined;
      this.schedule();
    });
    this.unreachable.start();
    this.poll = setInterval(() => {
      this.lanes.pruneIdle(Date.now(), idleLaneMs);
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

  /** Claims nothing more (a shutdown has begun); the attempts in flight go on. */
  stopClaiming(): void {
    this.stopped = true;
    clearInterval(this.poll);
    clearTimeout(this.tick);
  }

  /**
   * Stops claiming, lets the attempts in flight finish for up to `waitMs` (an app whose listener already
   * has the event should not get it again from another process), then abandons the rest (their claims
   * are given back, nothing is recorded); records finished ones.
   */
  async stop(waitMs = 0): Promise<void> {
    this.stopClaiming();
    if (waitMs > 0 && this.deliveries.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
      await Promise.race([Promise.all(this.deliveries), waited]);
      clearTimeout(timer);
    }
    this.shutdown.cancelAll();
    await this.unreachable.stop();
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

    const picked = this.lanes.pick(free);
    const probing = this.probesDue.splice(0, free - picked.length);
    if (picked.length + probing.length === 0) return;
    const now = this.ctx.now();
    // The apps are read beside the claims (a read does not wait for the claims' writes).
    const [claimed, probes, apps] = await Promise.all([
      picked.length > 0 ? claimEventsById(this.ctx.store, { ids: picked.map((event) => event.id), now, leaseMs }) : [],
      Promise.all(probing.map((appId) => claimProbe(this.ctx.store, { appId, now, leaseMs }))),
      this.appsOf([...picked.map((event) => event.app_id), ...probing]),
    ]);
    // In the order picked, which is each lane's order: the database returns claimed rows in any order.
    const pickOrder = new Map(picked.map((event, index) => [event.id, index]));
    claimed.sort((a, b) => pickOrder.get(a.id)! - pickOrder.get(b.id)!);
    const started = [...probes.filter((event) => event !== undefined), ...claimed];
    if (this.stopped) {
      await releaseClaims(this.ctx.store, started);
      return;
    }
    for (const event of started) {
      const app = apps.get(event.app_id);
      if (app) this.startDelivery(event, app);
      else this.ctx.log.error({ eventId: event.id, appId: event.app_id }, 'event delivery: the event’s app is gone');
    }
    // Events taken meanwhile by another worker left room; or more lanes have room and known events.
    this.wanted = true;
  }

  private async catchUpAfterRestart(): Promise<void> {
    try {
      const caught = await catchUpAfterRestart(this.ctx.store, this.ctx.now());
      if (caught.probes + caught.events > 0) {
        this.ctx.log.info(caught, `event delivery starting: ${caught.probes} waiting listeners probed now, ${caught.events} events due now`);
      }
    } catch (error) {
      // Nothing is lost: the probes and events stay due when they were.
      this.ctx.log.error({ err: error }, 'event delivery: catching up after a restart failed');
    }
  }

  private needsLook(): boolean {
    return this.outboxChanged || this.lookTruncated || this.lanes.wantsLook();
  }

  /** Reads ahead the due events of every app whose next events are not known yet (see `appsToSkip`). */
  private async look(): Promise<void> {
    this.outboxChanged = false;
    this.lastLookAt = performance.now();
    const skipped = this.lanes.appsToSkip(maxSkippedApps);
    const due = await findDueEvents(this.ctx.store, {
      now: this.ctx.now(),
      limit: readAheadLimit,
      perAppLimit: this.ctx.events.settings.readAheadPerApp,
      skipAppIds: skipped,
    });
    this.probesDue = await findAppsToProbe(this.ctx.store, { now: this.ctx.now(), limit: maxProbesPerLook });
    this.lastLookMs = performance.now() - this.lastLookAt;
    this.lookTruncated = due.length === readAheadLimit;
    this.lanes.learn(due, skipped, Date.now());
  }

  private async appsOf(appIds: string[]): Promise<Map<string, AppForDelivery>> {
    const ids = [...new Set(appIds)];
    const rows = await this.ctx.db
      .selectFrom('apps')
      .select(['id', 'name', 'team_id', 'developer_id', 'secret', 'previous_secret', 'previous_secret_until', 'listener_url', 'flock_naming', 'delivery_failing_since'])
      .where('id', 'in', paddedList(ids))
      .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  private startDelivery(event: EventsTable, app: AppForDelivery): void {
    const lane = this.lanes.started(event.app_id, Date.now());
    this.inFlight++;
    const delivery = attemptClaimedEvent(this.ctx, event, app, this.shutdown)
      .then(async (attempt) => {
        if (!attempt) {
          await releaseClaims(this.ctx.store, [event]);
          return;
        }
        this.lanes.adjust(lane, { outcome: attempt.verdict.outcome, durationMs: attempt.result.durationMs });
        this.recorder.add(attempt);
      })
      .catch((error: unknown) => {
        // Unrecorded: the claim's lease runs out and the event is attempted again.
        this.ctx.log.error({ err: error, eventId: event.id }, 'event delivery: an attempt failed unexpectedly');
      })
      .finally(() => {
        this.lanes.finished(lane, Date.now());
        this.inFlight--;
        this.deliveries.delete(delivery);
        this.tickSoon();
      });
    this.deliveries.add(delivery);
  }
}

/** Starts delivering with the server; `stop()` before the store closes. */
export function startDeliveryWorker(ctx: EventsContext): DeliveryWorker {
  const worker = new DeliveryWorker(ctx);
  ctx.events.attachWorker(worker);
  worker.start();
  return worker;
}
