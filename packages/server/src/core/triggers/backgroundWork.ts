import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after a request was answered (URL previews): nobody awaits it, so it is tracked here,
 * where shutdown waits for it before the store closes and a test can wait for it to settle.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  /** Starts `work` now; a failure is logged under `label`, never thrown at anyone. */
  run(label: string, work: () => Promise<void>): void {
    const running = work()
      .catch((error: unknown) => this.log.error({ err: error }, `background work failed: ${label}`))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves once everything started so far, and anything it started in turn, has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
