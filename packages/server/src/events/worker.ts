import type { ServerContext } from '../context.js';
import type { EventsTable } from '../store/schema.js';
import { claimDueEvents, releaseClaims } from './claim.js';
import { deliverClaimedEvent } from './deliverEvent.js';

/**
 * Delivers the outbox. Each app has a lane of `laneConcurrency` slots, and the process has
 * `globalConcurrency` slots in all: an app whose listener hangs fills only its own lane, and the claim
 * skips full lanes, so other apps' events keep flowing. Woken after each commit that enqueued events,
 * after each finished attempt, and by a poll timer for retries and for events other processes enqueued.
 */
export class DeliveryWorker {
  private readonly inFlightByApp = new Map<string, number>();
  private readonly deliveries = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private filling: Promise<void> | undefined;
  private wanted = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: ServerContext) {}

  start(): void {
    this.poll = setInterval(() => this.wake(), this.ctx.events.settings.pollIntervalMs);
    this.wake();
  }

  /** Looks for due events now; cheap to call often, as calls during a look coalesce into one more look. */
  wake(): void {
    if (this.stopped) return;
    this.wanted = true;
    this.filling ??= this.fillWhileWanted().finally(() => {
      this.filling = undefined;
    });
  }

  /** Stops claiming and abandons attempts in flight (their claims are given back, nothing is recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    this.shutdown.abort();
    await this.filling;
    await Promise.all(this.deliveries);
  }

  private async fillWhileWanted(): Promise<void> {
    while (this.wanted && !this.stopped) {
      this.wanted = false;
      try {
        await this.fillFreeSlots();
      } catch (error) {
        // The store may be briefly unreachable; the next poll tries again.
        this.ctx.log.error({ err: error }, 'event delivery: claiming due events failed');
      }
    }
  }

  private async fillFreeSlots(): Promise<void> {
    const { laneConcurrency, globalConcurrency, leaseMs } = this.ctx.events.settings;
    const free = globalConcurrency - this.deliveries.size;
    if (free <= 0) return;
    const fullLanes = [...this.inFlightByApp].filter(([, count]) => count >= laneConcurrency).map(([appId]) => appId);
    const claimed = await claimDueEvents(this.ctx.store, {
      now: this.ctx.now(),
      limit: free,
      perAppLimit: laneConcurrency,
      skipAppIds: fullLanes,
      leaseMs,
    });
    // A lane that was partly busy may have been offered more than it has room for.
    const overflow: EventsTable[] = [];
    for (const event of claimed) {
      if ((this.inFlightByApp.get(event.app_id) ?? 0) < laneConcurrency) this.startDelivery(event);
      else overflow.push(event);
    }
    await releaseClaims(this.ctx.store, overflow);
    // A full batch means more may be due.
    if (claimed.length === free) this.wanted = true;
  }

  private startDelivery(event: EventsTable): void {
    this.inFlightByApp.set(event.app_id, (this.inFlightByApp.get(event.app_id) ?? 0) + 1);
    const delivery = deliverClaimedEvent(this.ctx, event, this.shutdown.signal)
      .catch((error: unknown) => {
        // Unrecorded: the claim's lease runs out and the event is attempted again.
        this.ctx.log.error({ err: error, eventId: event.id }, 'event delivery: recording an attempt failed');
      })
      .finally(() => {
        const left = (this.inFlightByApp.get(event.app_id) ?? 1) - 1;
        if (left > 0) this.inFlightByApp.set(event.app_id, left);
        else this.inFlightByApp.delete(event.app_id);
        this.deliveries.delete(delivery);
        this.wake();
      });
    this.deliveries.add(delivery);
  }
}

/** Starts delivering with the server; `stop()` before the store closes. */
export function startDeliveryWorker(ctx: ServerContext): DeliveryWorker {
  const worker = new DeliveryWorker(ctx);
  ctx.events.attachWorker(worker);
  worker.start();
  return worker;
}
