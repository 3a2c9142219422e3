import type { EventsContext } from '../context.js';

/** Listeners tried in one round at most; with more, rounds take turns through them by app id. */
const perRound = 200;

/**
 * Watches the listeners that could not be reached: every `listenerProbeIntervalMs` it tries a bare
 * connection to each (nothing is sent, and nothing is recorded), and when one connects, makes that
 * app's probe due now instead of at its retry time. A listener that was down for a day is then back in
 * business within seconds of coming up, while the retry ladder still spaces out requests to a listener
 * that answers errors or hangs (a connection says nothing about those).
 */
export class UnreachableListenerWatch {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private after = '';

  constructor(
    private readonly ctx: EventsContext,
    /** Called when a probe was made due. */
    private readonly onProbeDue: () => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.round ??= this.tryConnecting()
        .catch((error: unknown) => this.ctx.log.error({ err: error }, 'event delivery: watching unreachable listeners failed'))
        .finally(() => (this.round = undefined));
    }, this.ctx.events.settings.listenerProbeIntervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  private async tryConnecting(): Promise<void> {
    const { db } = this.ctx;
    const apps = await db
      .selectFrom('apps')
      .select(['id', 'listener_url'])
      .where('listener_retry_at', '>', this.ctx.now())
      .where('listener_unreachable', '=', 1)
      .where('delivery_paused_at', 'is', null)
      .where('id', '>', this.after)
      .orderBy('id')
      .limit(perRound)
      .execute();
    this.after = apps.length === perRound ? apps[apps.length - 1].id : '';
    const reachable = await Promise.all(apps.map(async (app) => (app.listener_url && (await this.ctx.events.canConnect(app.listener_url)) ? app.id : undefined)));
    let due = 0;
    for (const appId of reachable) {
      if (!appId) continue;
      const now = this.ctx.now();
      const moved = await db.updateTable('apps').set({ listener_retry_at: now }).where('id', '=', appId).where('listener_retry_at', '>', now).where('listener_unreachable', '=', 1).executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) continue;
      due++;
      this.ctx.log.info({ appId }, 'listener accepts connections again: its oldest waiting event goes now');
    }
    if (due > 0) this.onProbeDue();
  }
}
