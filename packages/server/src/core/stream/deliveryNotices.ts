import type { FastifyBaseLogger } from 'fastify';
import type { DeliveryWatch } from '../../events/delivery/runtime.js';
import { POSITIONS_PER_TRANSACTION } from '../../store/rows/streamEntries.js';
import { runChange, type ChangeContext } from '../effects/effects.js';
import { deliveryChanged } from './entries.js';
import { recordStreamEntries } from './record.js';

/** The most event ids one frame names: the dashboard reads its log again anyway. */
const maxEventIds = 100;

/**
 * The developers' live delivery log: what the event engine says changed (attempts recorded, synchronous
 * events sent, replays, pauses) is gathered for `delayMs`, then written as one `delivery.changed` stream
 * entry per app, for its developer alone, in one transaction per team. Delivery itself never waits for
 * it; a burst of deliveries is a few entries, not one per event.
 */
export class DeliveryNotices implements DeliveryWatch {
  private pending = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ChangeContext & { now: () => number; log: Pick<FastifyBaseLogger, 'error'> },
    private readonly delayMs = 100,
  ) {}

  changed(appId: string, eventIds: readonly string[]): void {
    const ids = this.pending.get(appId) ?? new Set<string>();
    for (const id of eventIds) if (ids.size < maxEventIds) ids.add(id);
    this.pending.set(appId, ids);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref();
  }

  /** Writes what is pending now; resolves once it (and every write before it) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size > 0) this.writing = this.writing.then(() => this.write(batch)).catch((error: unknown) => this.ctx.log.error({ err: error }, 'the delivery log notices could not be written'));
    return this.writing;
  }

  close(): Promise<void> {
    return this.flush();
  }

  private async write(batch: Map<string, Set<string>>): Promise<void> {
    const apps = await this.ctx.db
      .selectFrom('apps')
      .select(['id', 'team_id', 'developer_id', 'delivery_paused_at'])
      .where('id', 'in', [...batch.keys()])
      .execute();
    const byTeam = new Map<string, typeof apps>();
    for (const app of apps) byTeam.set(app.team_id, [...(byTeam.get(app.team_id) ?? []), app]);
    for (const [teamId, teamApps] of byTeam) {
      const drafts = teamApps.map((app) => deliveryChanged(app.developer_id, { appId: app.id, eventIds: [...(batch.get(app.id) ?? [])], deliveryPausedAt: app.delivery_paused_at }));
      // A transaction appends a bounded number of entries to a team's stream.
      for (let start = 0; start < drafts.length; start += POSITIONS_PER_TRANSACTION) {
        const chunk = drafts.slice(start, start + POSITIONS_PER_TRANSACTION);
        await runChange(this.ctx, (tx, effects) => recordStreamEntries(tx, effects, teamId, chunk, this.ctx.now()));
      }
    }
  }
}
